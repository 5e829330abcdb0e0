"""The engine contract: the adapter an engine registers and the checks every engine passes.

scikit-learn's ``parametrize_with_checks`` habit: :mod:`test_contract` runs every check of
:data:`CHECKS` over every registered adapter, so a new engine is held to the same contract as
the old ones.

Registering an engine
---------------------
Write a module ``tests/table/engines_<name>.py`` (``engines_headsup.py``, ``engines_multi.py``,
``engines_rulebook.py``) that defines ``ADAPTERS: list[EngineAdapter]``; :mod:`test_contract`
finds every such module by its name.  An adapter subclasses :class:`EngineAdapter` and gives:

- ``name`` (the test id) and ``n_hands`` (hands played by seeded random players; 300 unless slow);
- ``new_hand(i)``: hand ``i`` (seeded by ``i``), a fresh state that implements
  :class:`poker51.table.protocol.Engine` (``whose_turn``, ``legal_plays``,
  ``verify_play``/``can_play``/``play``, ``view_json``, ``state_json``, ``hand_log``,
  ``from_log``, ``from_state_json``);
- ``chips(state)``: every chip of the hand's seats now, behind and in the pots (constant);
- ``hidden_cards(state, seat)``: the card strings ``seat`` may not see now (other seats' cards
  not yet shown, the undealt deck); empty once everything is public;
- ``illegal_plays(state)``: ``(action, rule)`` pairs, actions the rules refuse now and a piece
  of the rule text (``IllegalAction.rule``) each must name; cover every kind of refusal;
- ``replay(log)``: the engine's replay of a whole log, returning the log text it rebuilds.

Random play (:func:`steps`, :func:`play_out`) picks uniformly among ``legal_plays()`` with
``random.Random(seed)``; the checks assert exact equalities only.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from poker51.table.errors import IllegalAction
from poker51.table.protocol import TableAction


class EngineAdapter:
    """What an engine tells the contract (module docstring)."""

    name: str = "engine"
    n_hands: int = 300

    def new_hand(self, i: int) -> Any:
        raise NotImplementedError

    def chips(self, state: Any) -> int:
        raise NotImplementedError

    def hidden_cards(self, state: Any, seat: Any) -> set[str]:
        raise NotImplementedError

    def illegal_plays(self, state: Any) -> list[tuple[TableAction, str]]:
        raise NotImplementedError

    def replay(self, log: str) -> str:
        raise NotImplementedError


@dataclass
class Played:
    """One hand played out: the actions, the state's JSON and log length after every step
    (index 0: the fresh state), and the final log."""

    actions: list[TableAction] = field(default_factory=list)
    states: list[dict] = field(default_factory=list)
    log_lines: list[int] = field(default_factory=list)
    log: str = ""


def n_lines(text: str) -> int:
    return len(text.splitlines())


def steps(adapter: EngineAdapter, i: int, out: Played | None = None) -> Iterator[Any]:
    """Hand ``i`` played to the end by a random player seeded by ``i``: yields the state after
    every step (the fresh one first); ``out``, if given, collects what :class:`Played` holds."""
    rng = random.Random(1_000_003 * i + 17)
    state = adapter.new_hand(i)
    out = out if out is not None else Played()
    while True:
        out.states.append(state.state_json())
        out.log_lines.append(n_lines(state.hand_log()))
        yield state
        if state.finished:
            break
        legal = state.legal_plays()
        assert legal, f"{adapter.name} hand {i}: not finished and nothing legal"
        action = legal[rng.randrange(len(legal))]
        state.play(action)
        out.actions.append(action)
        assert len(out.actions) < 10_000
    out.log = state.hand_log()


def play_out(adapter: EngineAdapter, i: int) -> Played:
    """Hand ``i`` played to the end (:func:`steps`)."""
    out = Played()
    for _ in steps(adapter, i, out):
        pass
    return out


def hands(adapter: EngineAdapter) -> Iterator[int]:
    return iter(range(adapter.n_hands))


# --------------------------------------------------------------------------- the checks
def check_chips_conserved(adapter: EngineAdapter) -> None:
    """The chips of the hand's seats never change, at any step."""
    for i in hands(adapter):
        totals = [adapter.chips(state) for state in steps(adapter, i)]
        assert totals == [totals[0]] * len(totals), (adapter.name, i, totals)


def check_legal_plays_are_verified(adapter: EngineAdapter) -> None:
    """Every listed action passes ``verify_play``, and ``whose_turn`` is the seat of each."""
    for i in hands(adapter):
        for state in steps(adapter, i):
            if state.finished:
                assert state.whose_turn() is None and state.legal_plays() == []
                continue
            for a in state.legal_plays():
                assert a.seat == state.whose_turn(), (adapter.name, i, str(a))
                state.verify_play(a)
                assert state.can_play(a)


def check_illegal_plays_name_their_rule(adapter: EngineAdapter) -> None:
    """Every action of the adapter's table of illegal actions is refused, naming its rule,
    and leaves the state as it was."""
    seen_rules: set[str] = set()
    for i in hands(adapter):
        for state in steps(adapter, i):
            before = state.state_json()
            for action, rule in adapter.illegal_plays(state):
                assert not state.can_play(action), (adapter.name, i, str(action))
                with pytest.raises(IllegalAction) as err:
                    state.play(action)
                assert rule and rule in err.value.rule, (adapter.name, str(action), rule, str(err.value))
                assert err.value.rule in str(err.value)
                seen_rules.add(rule)
            assert state.state_json() == before
    assert len(seen_rules) >= 3, (adapter.name, seen_rules)


def check_log_replays_to_itself(adapter: EngineAdapter) -> None:
    """Every log replays to the same bytes."""
    for i in hands(adapter):
        log = play_out(adapter, i).log
        assert adapter.replay(log) == log, (adapter.name, i)


def check_resume_from_every_prefix(adapter: EngineAdapter) -> None:
    """From every prefix of every log the state rebuilds: its log is a prefix of the full log
    ending at a step, its JSON is that step's, and playing on gives the same final log."""
    for i in hands(adapter):
        played = play_out(adapter, i)
        lines = played.log.splitlines(keepends=True)
        engine = type(adapter.new_hand(i))
        for k in range(1, len(lines) + 1):
            state = engine.from_log("".join(lines[:k]))
            got = state.hand_log()
            n = n_lines(got)
            assert got == "".join(lines[:n]), (adapter.name, i, k)
            assert n in played.log_lines, (adapter.name, i, k, n)
            step = played.log_lines.index(n)
            assert state.state_json() == played.states[step], (adapter.name, i, k)
            for a in played.actions[step:]:
                state.play(a)
            assert state.hand_log() == played.log, (adapter.name, i, k)


def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


def check_views_hide_other_seats_cards(adapter: EngineAdapter) -> None:
    """No seat's view holds a card it may not see (other seats' cards before the showdown)."""
    for i in hands(adapter):
        for state in steps(adapter, i):
            for seat in state.seats:
                hidden = adapter.hidden_cards(state, seat)
                leaked = hidden & set(_strings(state.view_json(seat)))
                assert not leaked, (adapter.name, i, seat, sorted(leaked))


def check_json_round_trips(adapter: EngineAdapter) -> None:
    """The state's and every view's JSON survive ``json.dumps``/``loads`` unchanged, and the
    state comes back from its JSON (``from_state_json``) to the same JSON and log."""
    for i in hands(adapter):
        for state in steps(adapter, i):
            obj = state.state_json()
            assert json.loads(json.dumps(obj)) == obj
            back = type(state).from_state_json(json.loads(json.dumps(obj)))
            assert back.state_json() == obj and back.hand_log() == state.hand_log()
            for seat in state.seats:
                v = state.view_json(seat)
                assert json.loads(json.dumps(v)) == v


CHECKS: tuple[Callable[[EngineAdapter], None], ...] = (
    check_chips_conserved,
    check_legal_plays_are_verified,
    check_illegal_plays_name_their_rule,
    check_log_replays_to_itself,
    check_resume_from_every_prefix,
    check_views_hide_other_seats_cards,
    check_json_round_trips,
)
