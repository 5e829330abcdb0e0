"""Conservation through the service's own API: a Hypothesis property over random sessions.

Each example opens fresh accounts and a fresh room on one service (host, app and Starlette's
test client on SQLite, the host's clock moved by the test) and plays a random sequence of
operations over the WebSocket protocol with bot clients (:mod:`poker51.service.bots`): legal
commands, bad frames (each must be refused with an error frame that changes nothing: same
journal, events, ledger, receipts and answers), replayed ids, reconnections with resync, and
moves of the clock (a bank's recovery; the five-seat clocks: time-outs, the idle close).  After
it, every person leaves with their buy-in plus their net against the other people, the bank
of every account is its ledger's sum, and no jbit is created or lost: the banks of all
accounts plus every room's chips in play equal what the service minted (``grant`` and
``recovery`` rows).

Heads-up, "the other people" is the house (Riemann's side): per hand the cash-out receipt is
the buy-in receipt plus the hand's net in the history, and the house's bank moves by minus the
person's nets.  Five-seat: per person, the change of bank (minus recoveries) is the net against
the other people the table's ledger reports, and the nets sum to zero.
"""

from __future__ import annotations

import os
import random
import warnings

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from service_helpers import Service

from poker51.service import fiveseat as fsmod
from poker51.service import store as stmod
from poker51.service.bots import STYLES, SyncBot, choose_fiveseat, choose_headsup

#: POKER51_HYPOTHESIS_EXAMPLES=N: N random examples (not derandomized), a longer hunt than CI's 12
_HUNT = int(os.environ.get("POKER51_HYPOTHESIS_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=_HUNT or 12, deadline=None, derandomize=not _HUNT, suppress_health_check=[HealthCheck.too_slow]
)  # fmt: skip


@pytest.fixture(scope="module")
def svc(tmp_path_factory, riemann):
    s = Service(f"sqlite:///{tmp_path_factory.mktemp('conservation')}/service.db", riemann)
    yield s
    s.close()


def minted(svc, account: str | None = None) -> int:
    return sum(
        r["delta"] for r in svc.store.ledger_rows(account) if r["kind"] in ("grant", "recovery")
    )  # fmt: skip


def global_conservation(svc) -> None:
    """bank = ledger sum for every account; banks + chips in play = every jbit minted."""
    assert svc.store.check_banks() == []
    banks = sum(r["delta"] for r in svc.store.ledger_rows())
    chips = sum(sum(slot.room.chips().values()) for slot in svc.host.slots.values())
    assert banks + chips == minted(svc), (banks, chips, minted(svc))


def unchanged(svc, room: str, bot: SyncBot, frame: dict) -> dict:
    """Send a bad ``frame``: an error frame, and nothing stored or held changes (the room's turn
    as the host holds it: the bot's own count may still be catching up on earlier events)."""
    before = svc.store.counts(room), svc.store.bank(bot.track.account), getattr(svc.host.slots.get(room), "turn", None)
    ident = frame.get("id")
    bot.ws.send_text(__import__("json").dumps(frame))
    answer = bot.until(lambda f: f.get("type") in ("error", "ack") and f.get("re") == ident)
    assert answer["type"] == "error", (frame, answer)
    assert (
        svc.store.counts(room),
        svc.store.bank(bot.track.account),
        getattr(svc.host.slots.get(room), "turn", None),
    ) == before, frame
    return answer


# --------------------------------------------------------------------------- heads-up
HU_OPS = st.lists(
    st.sampled_from(["step", "step", "step", "step", "bad", "replay", "clock", "reconnect"]), min_size=4, max_size=30
)  # fmt: skip


def hu_bad_frames(bot: SyncBot, rng: random.Random) -> list[dict]:
    """Frames the room or the host must refuse now (each changes nothing)."""
    view = bot.track.view
    hand = view.get("hand")
    t = bot.track.turn
    out = [
        {"type": "act", "id": f"bad{rng.random()}", "turn": t + 1, "kind": "check", "amount": None},  # stale turn
        {"type": "raise_the_roof", "id": f"bad{rng.random()}", "turn": t},  # unknown type
        {"type": "act", "id": f"bad{rng.random()}", "turn": t, "kind": "check", "amount": None, "extra": 1},
    ]
    live = hand is not None and hand["view"]["phase"] != "done"
    if live:
        out.append({"type": "deal", "id": f"bad{rng.random()}", "turn": t})  # one hand at a time
    if live and not hand["can_draw"]:
        out.append({"type": "draw", "id": f"bad{rng.random()}", "turn": t})  # not the draw yet
    if live and hand["can_draw"]:
        out.append({"type": "act", "id": f"bad{rng.random()}", "turn": t, "kind": "check", "amount": None})
    if not live:
        out.append({"type": "act", "id": f"bad{rng.random()}", "turn": t, "kind": "check", "amount": None})
    return out


@SETTINGS
@given(ops=HU_OPS, seed=st.integers(0, 2**32 - 1))
def test_headsup_sessions_conserve_every_jbit(svc, ops, seed):
    rng = random.Random(seed)
    style = STYLES[seed % 2]  # the load benchmark's steady player too, on half the examples
    acc = svc.account()
    house0 = svc.store.bank(stmod.HOUSE)
    r = svc.client.post("/api/rooms", json={"kind": "headsup", "entropy": seed}, headers=acc.headers)
    room = r.json()["room"]
    ws_cm = svc.client.websocket_connect(f"/ws/{room}")
    bot = SyncBot(ws_cm.__enter__(), acc.token, f"p{seed}")
    bot.open()
    acked: list[tuple[str, dict, dict]] = []
    try:
        for op in ops:
            if op == "step":
                cmd = choose_headsup(bot.track.view, rng, bot.track.bank, style)
                if cmd is None:
                    continue
                answer = bot.send(cmd)
                assert answer["type"] == "ack", (cmd, answer)
                acked.append((answer["re"], cmd, answer))
            elif op == "bad":
                frames = hu_bad_frames(bot, rng)
                unchanged(svc, room, bot, rng.choice(frames))
            elif op == "replay" and acked:
                ident, cmd, first = rng.choice(acked)
                before = svc.store.counts(room)
                again = bot.send(cmd, ident, 0)  # any turn: the first answer, byte for byte
                assert again == first and svc.store.counts(room) == before
            elif op == "clock":
                svc.clock.advance(rng.choice([1.0, 1800.0, 3600.0, 3 * 3600.0]))
            elif op == "reconnect":
                last = bot.track.seq
                ws_cm.__exit__(None, None, None)
                ws_cm = svc.client.websocket_connect(f"/ws/{room}")
                bot.ws = ws_cm.__enter__()
                welcome = bot.open(last_seq=last)
                assert welcome["seq"] == last  # nothing happened while away
            global_conservation(svc)
        # the person leaves: the hand in progress is played to its end
        for _ in range(40):
            cmd = choose_headsup(bot.track.view, rng, bot.track.bank)
            if cmd is None or cmd["type"] == "deal":
                break
            assert bot.send(cmd)["type"] == "ack"
    finally:
        ws_cm.__exit__(None, None, None)
    global_conservation(svc)
    # each hand: cash-out = buy-in + net; the bank: start + recoveries + nets; the house: - nets
    me = svc.client.get("/api/account", headers=acc.headers).json()
    # the bank shown counts the recovery due since the last movement (not booked until one)
    assert me["ledger_sum"] == svc.store.bank(acc.id) and me["recovery_due"] >= 0
    assert me["bank"] == me["ledger_sum"] + me["recovery_due"] == svc.store.bank_due(acc.id, svc.clock.now())
    history = {h["hand"]: h["net"] for h in svc.client.get("/api/history", headers=acc.headers).json()}
    receipts: dict[int, dict[str, int]] = {}
    for rec in me["receipts"]:
        receipts.setdefault(rec["hand"], {})[rec["kind"]] = rec["jbits"]
    assert len(receipts) == len(history)
    for n, rec in receipts.items():
        assert 100 * (rec["cashout"] - rec["buyin"]) == history[f"{room}-{n}"]  # receipts jbits, nets cents
    assert me["ledger_sum"] == minted(svc, acc.id) + sum(history.values())
    assert svc.store.bank(stmod.HOUSE) - house0 == -sum(history.values())


# --------------------------------------------------------------------------- five-seat
FS_OPS = st.lists(
    st.tuples(
        st.sampled_from(["sit", "act", "act", "act", "act", "leave", "back", "riemann", "timeout", "bad", "clock"]),
        st.integers(0, 3),
        st.integers(0, 4),
        st.sampled_from([2, 4, 8, 16]),
    ),
    min_size=5,
    max_size=40,
)


def fiveseat_open(svc, acc) -> str | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = svc.client.post("/api/rooms", json={"kind": "fiveseat", "pause_s": 0}, headers=acc.headers)
    return r.json()["room"] if r.status_code == 201 else None


@settings(SETTINGS, phases=(Phase.explicit, Phase.reuse, Phase.generate))  # no shrinking: costly examples
@given(ops=FS_OPS, seed=st.integers(0, 2**32 - 1))
def test_fiveseat_sessions_conserve_every_jbit(svc, ops, seed):
    rng = random.Random(seed)
    people = [svc.account() for _ in range(4)]
    start = {p.id: svc.store.bank(p.id) for p in people}
    room = fiveseat_open(svc, people[0])
    assert room is not None, "the host cannot open a five-seat room"
    cms = [svc.client.websocket_connect(f"/ws/{room}") for _ in people]
    bots = [SyncBot(cm.__enter__(), p.token, f"f{seed}.{i}") for i, (cm, p) in enumerate(zip(cms, people))]
    seat: dict[int, int | None] = dict.fromkeys(range(4))
    clock_s = 45.0
    try:
        for b in bots:
            b.open()
        for op, i, s, buyin in ops:
            b = bots[i]
            if op == "sit" and seat[i] is None:
                a = b.send({"type": "sit", "seat": s, "buyin": buyin})
                if a["type"] == "ack":
                    seat[i] = s
            elif op == "act":
                for bb in bots:  # every bot reads what the others' commands and the clock sent
                    bb.refresh()
                actor = next((k for k in range(4) if seat[k] is not None and choose_fiveseat(
                    bots[k].track.view, seat[k], rng) is not None), None)  # fmt: skip
                if actor is not None:
                    cmd = choose_fiveseat(bots[actor].track.view, seat[actor], rng)
                    assert cmd is not None
                    a = bots[actor].send(cmd)
                    assert a["type"] == "ack" or a.get("code") == "stale_turn", (cmd, a)
            elif op == "leave" and seat[i] is not None:
                a = b.send({"type": "leave"})
                # refused only when the table already let the person go: closed after its idle
                # hours, the leave already pending, or stood up (the test's seat map lags)
                assert a["type"] == "ack" or a.get("rule") in (fsmod.RULE_CLOSED, fsmod.RULE_LEAVING,
                                                               fsmod.RULE_SEATED), a  # fmt: skip
                seat[i] = None
            elif op == "back":
                b.send({"type": "back"})  # refused unless away: either way conservation holds
            elif op == "riemann" and seat[i] is not None:
                b.send({"type": "add_riemann", "seat": s})
            elif op == "timeout":
                svc.clock.advance(clock_s + 1)
                svc.client.portal.call(svc.host.tick_due)
            elif op == "clock":
                svc.clock.advance(rng.choice([60.0, 3600.0, 2 * 3600.0 + 1]))
                svc.client.portal.call(svc.host.tick_due)
            elif op == "bad":
                t = b.track.turn
                unchanged(svc, room, b, rng.choice([
                    {"type": "sit", "id": f"bad{rng.random()}", "turn": t, "seat": 7, "buyin": 2},
                    {"type": "sit", "id": f"bad{rng.random()}", "turn": t, "seat": 0, "buyin": 3},
                    {"type": "act", "id": f"bad{rng.random()}", "turn": t + 5, "kind": "check"},
                ]))  # fmt: skip
            global_conservation(svc)
        # everyone leaves; the clock ends the hand in progress and pays every stack
        for i, b in enumerate(bots):
            if seat[i] is not None:
                b.send({"type": "leave"})
        for _ in range(30):
            svc.clock.advance(clock_s + 1)
            svc.client.portal.call(svc.host.tick_due)
        global_conservation(svc)
        slot = svc.host.slots.get(room)
        nets = slot.room.net() if slot is not None else {}
        chips = slot.room.chips() if slot is not None else {}
        assert sum(nets.values()) == 0
        for p in people:  # each person leaves with their buy-in plus their net against the others
            assert chips.get(p.id, 0) == 0
            gained = svc.store.bank(p.id) - start[p.id] - (minted(svc, p.id) - stmod.START_BANK)
            assert gained == nets.get(p.id, 0), p.id
    finally:
        for cm in cms:
            cm.__exit__(None, None, None)


def test_a_replayed_ack_does_not_move_the_bots_bank():
    """A replayed command id is answered with its first ack byte for byte, bank and all: the
    tracker keeps the newer bank (a stale one had the bot deal with an empty bank)."""
    from poker51.service.bots import Tracker

    t = Tracker()
    t.see({"type": "ack", "re": "a", "turn": 1, "seq": 1, "bank": 100})
    t.see({"type": "ack", "re": "b", "turn": 2, "seq": 2, "bank": 0})
    t.see({"type": "ack", "re": "a", "turn": 1, "seq": 1, "bank": 100})
    assert (t.bank, t.turn, t.seq) == (0, 2, 2)
