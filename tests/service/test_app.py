"""The host over Starlette's test client: a heads-up hand to showdown against Riemann, the table
of bad frames (each an error frame that changes nothing), replayed ids, restart mid-hand,
resync, who sees what, history and hand logs, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from service_helpers import send, until_answer

from poker51.play.actions import H
from poker51.service.protocol import MAX_FRAME
from poker51.service.store import HOUSE


def hello(ws, acc=None, last_seq=None):
    frame = {"type": "hello", "token": None if acc is None else acc.token}
    if last_seq is not None:
        frame["last_seq"] = last_seq
    send(ws, frame)
    f = ws.receive_json()
    assert f["type"] == "welcome", f
    return f


def choose(view):
    """A simple H: the first of call/check, else the first legal action; keep pairs (the first
    action keeps cards 0 and 1)."""
    legal = view["legal"]
    pick = next((a for a in legal if a["kind"] in ("call", "check")), legal[0])
    frame = {"type": "act", "kind": pick["kind"], "amount": pick["amount"]}
    if view["needs_keep"]:
        frame["keep"] = 0b00011
    return frame


def deal_and_act(ws, acc):
    """Hello, deal, and H's first action (id "a1"): (that action's frame, its ack, the view after it)."""
    hello(ws, acc)
    send(ws, {"type": "deal", "id": "d1", "turn": 0})
    events, ack = until_answer(ws)
    frame = choose(events[-1]["event"]["view"]["hand"]["view"])
    send(ws, {**frame, "id": "a1", "turn": ack["turn"]})
    events, ack = until_answer(ws)
    return frame, ack, events[-1]["event"]["view"]


def play_to_end(ws, turn, view, prefix="x"):
    """Play H's side until the hand ends; (turn, last view, frames seen)."""
    k = 0
    seen = []
    while view["hand"]["view"]["result"] is None:
        k += 1
        if view["hand"]["can_draw"]:
            frame = {"type": "draw"}
        else:
            frame = choose(view["hand"]["view"])
        send(ws, {**frame, "id": f"{prefix}{k}", "turn": turn})
        events, ack = until_answer(ws)
        assert ack["type"] == "ack", ack
        seen += events
        turn = ack["turn"]
        view = events[-1]["event"]["view"]
    return turn, view, seen


def conservation(svc, acc):
    """bank = ledger sum for every account, and a person's bank + chips in play + the house's
    equal every jbit granted (the house may be negative: it is Riemann's side)."""
    assert svc.store.check_banks() == []
    chips = {}
    for slot in svc.host.slots.values():
        for a, n in slot.room.chips().items():
            chips[a] = chips.get(a, 0) + n
    rows = svc.store.ledger_rows()
    granted = sum(r["delta"] for r in rows if r["kind"] in ("grant", "recovery"))
    total = sum(svc.store.bank(a) for a in {r["account_id"] for r in rows} | {HOUSE}) + sum(chips.values())
    assert total == granted


def test_hand_to_showdown_and_history(service):
    acc = service.account()
    room = service.room(acc, entropy=3)
    with service.client.websocket_connect(f"/ws/{room}") as ws:
        w = hello(ws, acc)
        assert w["bank"] == 800 and w["turn"] == 0 and w["view"]["can_deal"]
        send(ws, {"type": "deal", "id": "d1", "turn": 0})
        events, ack = until_answer(ws)
        assert ack["type"] == "ack" and ack["bank"] == 0 and ack["receipts"][0]["kind"] == "buyin"
        assert ack["receipts"][0]["jbits"] == 8 and ack["receipts"][0]["id"] == "d1"
        view = events[-1]["event"]["view"]
        assert len(view["hand"]["view"]["cards"]) == 5 and view["hand"]["seed"] is None
        conservation(service, acc)
        turn, view, _ = play_to_end(ws, ack["turn"], view)
    res = view["hand"]["view"]["result"]
    net = res["net"]["H"]
    assert service.store.bank(acc.id) == 800 + 100 * net  # cents; the hand is whole jbits
    conservation(service, acc)
    # the seed published at the end is the one committed at the deal
    import hashlib

    assert hashlib.sha256(bytes.fromhex(view["hand"]["seed"])).hexdigest() == view["hand"]["commitment"]
    hist = service.client.get("/api/history", headers=acc.headers).json()
    assert [h["net"] for h in hist] == [100 * net] and hist[0]["rules"] == "v0.6"
    log = service.client.get(f"/api/hands/{hist[0]['hand']}", headers=acc.headers).json()
    from poker51.play.engine import HandState, replay

    assert replay(log["log"]["text"]).log == log["log"]["text"]  # the engine's log, byte for byte
    assert HandState.from_log(log["log"]["text"]).result().net["H"] == net
    other = service.account()
    assert service.client.get(f"/api/hands/{hist[0]['hand']}", headers=other.headers).status_code == 404
    receipts = service.client.get("/api/account", headers=acc.headers).json()
    assert receipts["bank"] == receipts["ledger_sum"] == 800 + 100 * net
    assert [r["kind"] for r in receipts["receipts"]] == ["buyin", "cashout"]


def _frames(room_turn):
    big = json.dumps({"type": "act", "id": "big", "turn": room_turn, "kind": "check", "pad": "x" * MAX_FRAME})
    return [
        ("malformed JSON", "{not json", "bad_json", ""),
        ("not an object", "[1, 2]", "bad_json", ""),
        ("unknown type", {"type": "explode", "id": "e1", "turn": room_turn}, "unknown_type", ""),
        ("no id", {"type": "act", "turn": room_turn, "kind": "check"}, "bad_frame", ""),
        ("bad turn", {"type": "act", "id": "t0", "turn": "one", "kind": "check"}, "bad_frame", ""),
        ("stale turn", {"type": "act", "id": "s1", "turn": room_turn - 1, "kind": "check", "keep": 3},
         "stale_turn", ""),
        ("wrong size", {"type": "act", "id": "w1", "turn": room_turn, "kind": "bet", "amount": 3, "keep": 3}, "illegal",
         "rule card, A hand 3"),
        ("no keep on the first action", {"type": "act", "id": "k1", "turn": room_turn, "kind": "check"}, "illegal",
         "rule card, A hand 2"),
        ("out of turn: a draw before the draw", {"type": "draw", "id": "o1", "turn": room_turn}, "illegal",
         "rule card, A hand"),
        ("a second deal", {"type": "deal", "id": "d9", "turn": room_turn}, "illegal", "rule card, A hand"),
        ("unknown field", {"type": "act", "id": "f1", "turn": room_turn, "kind": "check", "keep": 3, "x": 1},
         "bad_frame", ""),
        ("oversized frame", big, "too_large", ""),
        ("second hello", {"type": "hello", "token": None}, "hello_first", ""),
        ("odds of a bad keep", {"type": "query", "id": "q1", "what": "odds", "keep": 99}, "illegal", "the draw-odds"),
    ]  # fmt: skip


def test_bad_frames_change_nothing(service):
    acc = service.account()
    room = service.room(acc, entropy=4)
    with service.client.websocket_connect(f"/ws/{room}") as ws:
        hello(ws, acc)
        send(ws, {"type": "deal", "id": "d1", "turn": 0})
        _, ack = until_answer(ws)
        turn = ack["turn"]
        slot = service.host.slots[room]
        before = (service.store.counts(room), json.dumps(slot.room.view(acc.id)), service.store.bank(acc.id))
        for name, frame, code, rule in _frames(turn):
            send(ws, frame)
            f = ws.receive_json()
            assert f["type"] == "error" and f["code"] == code, (name, f)
            assert f["rule"].startswith(rule), (name, f)
            after = (service.store.counts(room), json.dumps(slot.room.view(acc.id)), service.store.bank(acc.id))
            assert after == before, name
        # a replayed action id: the first answer, byte for byte, and nothing moves
        send(ws, {"type": "deal", "id": "d1", "turn": 0})
        f = ws.receive_json()
        assert f == ack
        assert (service.store.counts(room), json.dumps(slot.room.view(acc.id))) == before[:2]


def test_tokens_watchers_and_unknown_rooms(service):
    acc, other = service.account(), service.account()
    room = service.room(acc, entropy=5)
    with service.client.websocket_connect(f"/ws/{room}") as ws:
        send(ws, {"type": "view"})
        assert ws.receive_json()["code"] == "hello_first"
        send(ws, {"type": "hello", "token": "not-a-token-of-anyone"})
        assert ws.receive_json()["code"] == "bad_token"
        w = hello(ws, None)
        assert w["account"] is None
        send(ws, {"type": "deal", "id": "d1", "turn": 0})
        assert ws.receive_json()["code"] == "watcher"
    with service.client.websocket_connect(f"/ws/{room}") as ws:
        hello(ws, other)
        send(ws, {"type": "deal", "id": "d1", "turn": 0})
        f = ws.receive_json()
        assert f["code"] == "illegal" and f["rule"].startswith("service: the room's owner")
    with service.client.websocket_connect("/ws/NoSuchRoom1") as ws:
        f = ws.receive_json()
        assert f["type"] == "error" and f["code"] == "unknown_room"
    assert service.client.get("/api/rooms/NoSuchRoom1").status_code == 404
    assert service.client.post("/api/rooms", json={"kind": "headsup"}).status_code == 401
    bad = service.client.post("/api/rooms", json={"kind": "poker"}, headers=acc.headers)
    assert bad.status_code == 400 and bad.json()["error"] == "bad_frame"
    assert service.store.counts(room)["journal"] == 0


def test_watcher_sees_no_hidden_card_and_resyncs(service):
    acc = service.account()
    room = service.room(acc, entropy=6)
    with (
        service.client.websocket_connect(f"/ws/{room}") as watch,
        service.client.websocket_connect(f"/ws/{room}") as ws,
    ):
        hello(watch, None)
        hello(ws, acc)
        send(ws, {"type": "deal", "id": "d1", "turn": 0})
        events, ack = until_answer(ws)
        mine = events[-1]["event"]["view"]["hand"]["view"]["cards"]
        turn, view, _ = play_to_end(ws, ack["turn"], events[-1]["event"]["view"])
        seen = []
        while True:
            f = watch.receive_json()
            seen.append(f)
            if f["event"]["view"]["hand"]["view"]["result"] is not None:
                break
        for f in seen[:-1]:
            hv = f["event"]["view"]["hand"]
            assert hv["view"]["cards"] is None and hv["seed"] is None
            assert not set(json.dumps(f).split('"')) & set(mine)
        assert seen[-1]["event"]["view"]["hand"]["view"]["cards"] is not None  # revealed at the end
        # resync from the first event: the owner's own events after it, then the view
        send(ws, {"type": "resync", "last_seq": 1})
        events, v = until_answer(ws)
        assert v["type"] == "view" and all(e["replayed"] and e["seq"] > 1 for e in events)
        assert v["view"] == view


def test_restart_mid_hand_resumes(db_url, riemann):
    from service_helpers import Service

    svc = Service(db_url, riemann)
    acc = svc.account()
    room = svc.room(acc, entropy=7)
    with svc.client.websocket_connect(f"/ws/{room}") as ws:
        frame, ack, view = deal_and_act(ws, acc)
    svc2 = svc.restart()
    try:
        with svc2.client.websocket_connect(f"/ws/{room}") as ws:
            w = hello(ws, acc, last_seq=0)
            assert w["view"] == view and w["turn"] == ack["turn"]
            # the replayed id is still answered from the store after the restart
            send(ws, {**frame, "id": "a1", "turn": 0})
            missed, first = until_answer(ws)
            assert first == ack
            turn, end, _ = play_to_end(ws, w["turn"], w["view"], prefix="y")
        assert end["hand"]["view"]["result"] is not None
        assert svc2.store.check_banks() == []
    finally:
        svc2.close()


def test_an_idle_room_is_unloaded_then_loaded_from_its_journal_mid_hand(db_url, riemann):
    """A room no socket holds for UNLOAD_AFTER seconds leaves memory (never while a socket holds it)
    and comes back from its journal when a socket asks for it, mid-hand, as after a restart."""
    from service_helpers import Service

    from poker51.service.app import UNLOAD_AFTER

    svc = Service(db_url, riemann)
    try:
        acc = svc.account()
        room = svc.room(acc, entropy=7)
        with svc.client.websocket_connect(f"/ws/{room}") as ws:
            frame, ack, view = deal_and_act(ws, acc)
            svc.clock.advance(10 * UNLOAD_AFTER)
            assert svc.host.unload_idle() == 0 and room in svc.host.slots  # a socket holds it
        svc.clock.advance(UNLOAD_AFTER - 1)
        assert svc.host.unload_idle() == 0 and room in svc.host.slots  # not idle long enough
        svc.clock.advance(1)
        assert svc.host.unload_idle() == 1 and room not in svc.host.slots and svc.host.unloads == 1
        with svc.client.websocket_connect(f"/ws/{room}") as ws:
            w = hello(ws, acc, last_seq=0)
            assert room in svc.host.slots and svc.host.reloads == 1
            assert w["view"] == view and w["turn"] == ack["turn"]
            send(ws, {**frame, "id": "a1", "turn": 0})  # a replayed id: answered from the store
            _, first = until_answer(ws)
            assert first == ack
            _, end, _ = play_to_end(ws, w["turn"], w["view"], prefix="y")
        assert end["hand"]["view"]["result"] is not None
        conservation(svc, acc)
    finally:
        svc.close()


@pytest.mark.parametrize("keep", [0b00011, 0b11111])
def test_odds_query(sqlite_service, keep):
    svc = sqlite_service
    acc = svc.account()
    room = svc.room(acc, entropy=8)
    with svc.client.websocket_connect(f"/ws/{room}") as ws:
        hello(ws, acc)
        send(ws, {"type": "deal", "id": "d1", "turn": 0})
        events, _ = until_answer(ws)
        cards = events[-1]["event"]["view"]["hand"]["view"]["cards"]
        send(ws, {"type": "query", "id": "q", "what": "odds", "keep": keep})
        _, ans = until_answer(ws)
    from math import comb

    from poker51.cards import parse_card
    from poker51.service.headsup import draw_odds

    n = 5 - bin(keep).count("1")
    assert ans["type"] == "answer" and ans["total"] == comb(46, n) == sum(ans["counts"].values())
    assert ans["counts"] == draw_odds("standard", [parse_card(c) for c in cards], keep)["counts"]
    assert H == "H"


def test_event_frame_built_around_the_stored_body():
    """A broadcast puts the stored body in the event frame as is: the same bytes as encoding the
    frame with the payload read back from that body (the frames a resync or a restart sends)."""
    from poker51.service.app import event_text
    from poker51.service.protocol import encode
    from poker51.service.store import StoredEvent, dumps

    payload = {"z": 1, "a": {"y": [1, 2.5, None, 'é"\n'], "b": True}, "m": -3.0e-7, "n": 10**20, "t": (1, 2)}
    body = dumps(payload)
    ev = StoredEvent(3, 4, "all", json.loads(body), body)
    expected = encode({"type": "event", "seq": 3, "turn": 4, "event": json.loads(body)})
    assert event_text(ev) == expected
    assert event_text(StoredEvent(3, 4, "all", json.loads(body))) == expected
    assert json.loads(event_text(ev))["event"] == json.loads(body)
