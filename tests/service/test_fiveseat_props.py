"""The five-seat room's two promises over many hands: no frame leaks a hidden card before the
reveal, and jbits are conserved (each person leaves with the buy-in plus the net against people),
with every prefix of the journal replaying to the same frames."""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from fiveseat_helpers import Rec, card_strings, check_replay, viewers

from poker51.io import canonical_json
from poker51.service import fiveseat as fs
from poker51.service.room import Event
from poker51.table.errors import IllegalAction

PEOPLE = ("ann", "bob", "cy", "dee")


def public_part(payload: dict[str, Any], hand: int) -> dict[str, Any]:
    """The payload without ``last`` (the previous hand, revealed), after checking it is that."""
    last = payload.get("last")
    assert last is None or last["result"]["hand"] < hand or payload.get("type") in ("result", "reveal")
    return {k: v for k, v in payload.items() if k != "last"}


def leaks(window: list[Event], hand: int, names: dict[str, str], reveal: dict[str, Any]) -> list[str]:
    """The events of ``hand`` before its result that show a card to someone who may not see it:
    public frames may show none, ``account:<id>`` frames only that account's own cards."""
    own: dict[str, set[str]] = {}
    for s, name in names.items():
        own.setdefault(name, set()).update(reveal["dealt"][s], reveal["final"][s])
    bad = []
    for ev in window:
        cards = card_strings(public_part(ev.payload, hand))
        who = ev.audience.removeprefix("account:") if ev.audience.startswith("account:") else None
        shown = cards - own.get(who, set()) if who is not None else cards
        if shown:
            bad.append(f"hand {hand}: {ev.audience} {ev.payload['type']} shows {sorted(shown)}")
    return bad


def audit_events(events: list[Event]) -> tuple[int, int, list[str]]:
    """Scan a room's event stream hand by hand (:func:`leaks`): (hands revealed, private card
    frames, problems)."""
    window: list[Event] = []
    hand, names, hands, private = 0, {}, 0, 0
    problems: list[str] = []
    for ev in events:
        t = ev.payload["type"]
        if t == "hand":
            hand, names, window = ev.payload["hand"], ev.payload["names"], []
        elif t == "result":
            window.append(ev)  # the result is the reveal: it closes the window
        elif t == "reveal":
            assert ev.payload["hand"] == hand and window and window[-1].payload["type"] == "result"
            problems += leaks(window[:-1], hand, names, ev.payload)
            private += sum(1 for e in window if e.payload["type"] == "cards")
            hands += 1
            window = []
            hand = -1
        elif hand > 0:
            window.append(ev)
        else:  # between hands: no card of a hand in progress can be in it, and none is hidden now
            assert ev.payload["type"] != "cards"
    return hands, private, problems


def test_the_leak_audit_finds_a_leak():
    hand_ev = Event("all", {"type": "hand", "hand": 1, "names": {"0": "ann", "1": "bob"}})
    mine = Event("account:ann", {"type": "cards", "hand": 1, "seat": 0, "cards": ["As", "Kd", "3c", "4c", "5c"]})
    leak = Event("account:bob", {"type": "action", "hand": 1, "note": ["Kd"]})
    result = Event("all", {"type": "result", "hand": 1})
    hands = {"0": ["As", "Kd", "3c", "4c", "5c"], "1": ["Ah", "Kh", "3h", "4h", "5h"]}
    reveal = Event("all", {"type": "reveal", "hand": 1, "dealt": hands, "final": hands})
    assert audit_events([hand_ev, mine, result, reveal])[2] == []
    assert audit_events([hand_ev, mine, leak, result, reveal])[2] == ["hand 1: account:bob action shows ['Kd']"]


def refill(r: Rec) -> None:
    """Between hands: a person short of an ante leaves and sits again, the away come back, and
    ann adds Riemann again when it left (each step may deal a hand: the frame is read afresh)."""
    for s in range(5):
        x = r.room.view(None)["seats"].get(str(s))
        if r.actor() is not None or x is None or x["kind"] != "person":
            continue
        if x["stack_cents"] < 100:
            r.do(x["account"], {"type": "leave"})
            r.do(x["account"], {"type": "sit", "seat": s, "buyin": 16})
        elif x["away"]:
            r.do(x["account"], {"type": "back"})
    seats = r.room.view(None)["seats"]
    if r.actor() is None and "4" not in seats and seats["0"]["stack_cents"] >= 100:
        r.do("ann", {"type": "add_riemann", "seat": 4})


def test_no_frame_shows_a_hidden_card_over_1000_bot_played_hands():
    r = Rec.new()
    for i, a in enumerate(PEOPLE):
        r.do(a, {"type": "sit", "seat": i, "buyin": 16})
    r.do("ann", {"type": "add_riemann", "seat": 4})
    rng = random.Random(51)
    frames_checked = 0
    while r.room.table.hands_started < 1000 or r.actor() is not None:
        if r.actor() is None:
            refill(r)
            assert r.actor() is not None, r.room.view(None)
        r.bot(rng, timeouts=0.05)
        if rng.random() < 0.02 and r.room.view(None)["hand"] is not None:  # whole frames too
            n = r.room.view(None)["hand"]["hand"]
            frames = {v: r.room.view(v) for v in viewers(r.room)}
            for v, f in frames.items():
                you = f["you"]["cards"] if f["you"] else []
                assert card_strings(public_part(f, n)) == set(you), v
                frames_checked += 1
    hands, private, problems = audit_events(r.events)
    assert problems == []
    assert hands == r.room.table.hands_started >= 1000
    assert private >= 2 * hands and frames_checked > 100  # the audit saw each hand's own cards
    assert r.room.audit_failures == []


# --------------------------------------------------------------------------- conservation
OPS = ("sit",) * 3 + ("move",) * 4 + ("hand", "riemann", "timeout") * 2 + ("leave", "remove", "back", "recover", "wait")


def independent_net(events: list[Event]) -> dict[str, int]:
    """Each person's net against the other people, from the result frames' transfers alone."""
    net: dict[str, int] = {}
    for ev in events:
        if ev.payload["type"] == "result":
            names = ev.payload["names"]
            for a, b, v in ev.payload["transfers"]:
                pa, pb = names[str(a)], names[str(b)]
                if a != b and not pa.startswith("Riemann ") and not pb.startswith("Riemann "):
                    net[pa] = net.get(pa, 0) - v
                    net[pb] = net.get(pb, 0) + v
    return net


def pick(data: st.DataObject, likely: Any, anything: Any) -> Any:
    """One of ``likely`` nine times in ten (when there is one), else one of ``anything``."""
    if likely and data.draw(st.integers(0, 9)) > 0:
        return data.draw(st.sampled_from(list(likely)))
    return data.draw(st.sampled_from(list(anything)))


def check_books(r: Rec) -> None:
    for m in r.moves:
        assert m.receipt is not None
        body = {k: v for k, v in m.receipt.items() if k != "sha256"}
        assert hashlib.sha256(canonical_json(body).encode()).hexdigest() == m.receipt["sha256"]
        assert m.kind in ("buyin", "cashout") and (m.delta < 0) == (m.kind == "buyin")
    chips, net = r.room.chips(), independent_net(r.events)
    for a in chips:
        assert r.moved(a) + chips[a] == net.get(a, 0), a
    assert sum(net.values()) == 0
    assert sum(chips.values()) + sum(m.delta for m in r.moves) == 0  # no jbit made or lost
    assert r.room.audit_failures == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_jbits_are_conserved_and_every_journal_prefix_replays(entropy, data):
    r = Rec.new(snap=True, entropy=entropy, pause_s=data.draw(st.sampled_from([0, 4])))
    bank = {a: data.draw(st.sampled_from([200, 1600, 5000])) for a in PEOPLE}
    rng = random.Random(entropy)
    for _ in range(data.draw(st.integers(10, 60))):
        op = data.draw(st.sampled_from(OPS))
        # mostly a command that can be taken (a seated person, an open seat), sometimes any
        seats = r.room.view(None)["seats"]
        seated = sorted(x["account"] for x in seats.values() if x["kind"] == "person")
        open_seats = [s for s in range(5) if str(s) not in seats]
        riemann_seats = [int(s) for s, x in seats.items() if x["kind"] == "riemann"]
        who = pick(data, {"sit": [a for a in PEOPLE if a not in seated]}.get(op, seated), PEOPLE)
        seat = pick(data, riemann_seats if op == "remove" else open_seats, range(5))
        before = (r.room.entries, r.room.chips(), len(r.moves))
        try:
            if op == "sit":
                r.do(who, {"type": "sit", "seat": seat, "buyin": data.draw(st.sampled_from(fs.BUYINS))},
                     bank=bank[who] + r.moved(who))  # fmt: skip
            elif op == "leave":
                r.do(who, {"type": "leave"})
            elif op == "riemann":
                r.do(who, {"type": "add_riemann", "seat": seat})
            elif op == "remove":
                r.do(who, {"type": "remove_riemann", "seat": seat})
            elif op == "back":
                r.do(who, {"type": "back"})
            elif op == "recover":  # the bank moves outside the table (the recovery clock, another table)
                bank[who] += 100
            elif op == "wait":
                r.tick(data.draw(st.sampled_from([1.0, 30.0, 3600.0, 7300.0])))
            elif r.actor() is not None:
                if op == "timeout":
                    r.timeout()
                elif op == "move":
                    r.bot(rng)
                else:  # a whole hand of random moves
                    n = r.room.table.hands_started
                    while r.actor() is not None and r.room.table.hands_started == n:
                        r.bot(rng, timeouts=0.1)
        except IllegalAction:
            assert (r.room.entries, r.room.chips(), len(r.moves)) == before
        check_books(r)
    # the end: everyone leaves (folding the hand in progress), or nobody plays and the table closes idle
    if data.draw(st.booleans()):
        for a in PEOPLE:
            if r.room.view(a)["you"] and r.room.view(a)["you"]["seat"] is not None and not r.room.view(None)["closed"]:
                if not r.room.view(None)["seats"][str(r.room.view(a)["you"]["seat"])]["leaving"]:
                    r.do(a, {"type": "leave"})
    for _ in range(200):
        if r.room.view(None)["closed"]:
            break
        r.tick(fs.IDLE_CLOSE_S + 1)  # a time-out, a deal, or the close
    assert r.room.view(None)["closed"] and all(v == 0 for v in r.room.chips().values())
    net = independent_net(r.events)
    for a in PEOPLE:
        assert r.moved(a) == net.get(a, 0)  # each leaves with the buy-in plus the net against people
    check_books(r)
    check_replay(r)
