"""The floor under the three tables (the heads-up engine, the five-seat tables, the rule book's
games): what they do alike and nothing of any game's betting law.  ``pots`` (the pot law:
uncalled chips, side pots, odd units, transfers per contributor) and ``deal`` (committed
deals: HMAC-SHA256 Fisher-Yates, seed and deck commitments)."""
