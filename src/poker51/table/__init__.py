"""The floor under the three tables (the heads-up engine, the five-seat tables, the rule book's
games): what they do alike and nothing of any game's betting law.  ``pots`` (the pot law:
uncalled chips, side pots, odd units, transfers per contributor), ``settlement`` (the
settlement record and its conservation check), ``deal`` (committed deals: HMAC-SHA256
Fisher-Yates, seed and deck commitments), ``errors`` (one ``IllegalAction`` naming its rule,
``ReplayError``, ``LogError``), ``log`` (one JSON-lines log writer and a reader of every
engine's log format) and ``protocol`` (the ``verify_play``/``can_play``/``play`` protocol, the
per-seat view and the resume from a log prefix that every engine offers)."""
