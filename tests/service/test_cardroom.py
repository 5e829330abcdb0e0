"""The card room through the service's protocol (WebSockets of a real host on SQLite, a clock the
test moves): one test per article of the rule book, named after it, and a table of bad frames.

Decks are ``SeedSequence`` seeds (``deck: seedsequence``), so every hand here is reproducible; the
tests read the cards from the frames, never assume them."""

from __future__ import annotations

import hashlib
import json

import pytest
from cardroom_helpers import CardService, Player, legal

from poker51.rulebook.games import RAKE_CAP_BIG_BLINDS, RAKE_PERCENT
from poker51.rulebook.log import check_log
from poker51.service.cardroom import EDITION
from poker51.service.store import START_BANK
from poker51.table.deal import shuffle

CARD_KEYS = ("cards", "hole", "boards", "best", "sets", "laid")


@pytest.fixture
def svc(tmp_path):
    s = CardService(f"sqlite:///{tmp_path}/service.db")
    yield s
    s.close()


def table(svc, n=2, game="holdem", buyin=8, seats=None, **params):
    """A table of ``n`` players seated (seats 0, 1, ... unless given), each buying in ``buyin``."""
    owner = svc.account()
    if n >= 2:
        params.setdefault("start_players", n)  # the first hand waits for all n (not dealt heads-up)
    room = svc.table(owner, game=game, deck="seedsequence", entropy=params.pop("entropy", 11), **params)
    players = [Player(svc, room, owner if k == 0 else None) for k in range(n)]
    for k, p in enumerate(players):
        p.ok("sit", seat=(seats or list(range(n)))[k], buyin=buyin)
    return room, players


def turn_of(players):
    """The player on turn (by the frame), or None."""
    v = players[0].view()
    who = v["hand"]["to_act"] if v["hand"] else None
    return next((p for p in players if p.id == who), None)


def play(p, kind, **fields):
    return p.ok("act", kind=kind, **fields)


def check_down(players):
    """Finish the hand in play: check or call every round, show at the showdown."""
    while players[0].view()["hand"] is not None:
        p = turn_of(players)
        assert p is not None
        if p.view()["hand"]["phase"] == "showdown":
            p.ok("show")
        else:
            play(p, "check" if "check" in legal(p.view()) else "call")


def cards_in(obj):
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in CARD_KEYS:
                out |= {c for c in json.dumps(v).replace('"', " ").replace(",", " ").split() if len(c) == 2}
            else:
                out |= cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cards_in(v)
    return out


def fold_hands(svc, players, n):
    """Play ``n`` hands in which every player on turn folds until one remains (the hand ends)."""
    room = svc.host.slots[players[0].room].room
    for _ in range(n):
        number = room.table.hand_number
        while room.table.hand_number == number and room._in_hand():
            p = turn_of(players)
            assert p is not None
            play(p, "fold")
        svc.advance(room.params["pause_s"])


def archived(svc, players, hand_id):
    r = svc.client.get(f"/api/hands/{hand_id}", headers=players[0].acc.headers)
    assert r.status_code == 200, r.text
    return r.json()["log"]


# --------------------------------------------------------------------------- Article I
def test_I_1_a_holdem_table_seats_nine_every_other_game_seven_and_3_sets_six(svc):
    room, (a,) = table(svc, 1, seats=[8])
    assert a.view()["n_seats"] == 9 and a.view()["seats"]["8"]["account"] == a.id
    r = Player(svc, room).cmd("sit", seat=9, buyin=4)
    assert r["code"] == "illegal" and r["rule"].startswith("1.1")
    for game, n in (("omaha", 7), ("omaha_open", 7)):
        room, (p,) = table(svc, 1, game=game, seats=[n - 1])
        assert p.view()["n_seats"] == n
        assert Player(svc, room).cmd("sit", seat=n, buyin=4)["rule"].startswith("1.1")
    room, (p,) = table(svc, 1, game="three_sets", practice=True, seats=[5])
    assert p.view()["n_seats"] == 6 and Player(svc, room).cmd("sit", seat=6, buyin=4)["rule"].startswith("1.1")


def test_the_seats_show_each_players_display_name_next_to_the_account_id(svc):
    """The host's display names (``Context.display_name``: the name an account chose, else
    ``Player <id[1:5]>``) in every frame that names a seated player; the account id stays."""
    from types import SimpleNamespace

    def named(name):
        r = svc.client.post("/api/accounts", json={"name": name} if name else {})
        assert r.status_code == 201, r.text
        a = r.json()
        acc = SimpleNamespace(id=a["account"], token=a["token"], headers={"Authorization": f"Bearer {a['token']}"})
        return acc, a["name"]

    (ann, ann_name), (bob, bob_name), (cat, cat_name) = named("Ann"), named("Bob Smith"), named(None)
    assert (ann_name, bob_name, cat_name) == ("Ann", "Bob Smith", f"Player {cat.id[1:5]}")
    names = {ann.id: ann_name, bob.id: bob_name, cat.id: cat_name}
    room = svc.table(ann, game="holdem", deck="seedsequence", entropy=3, start_players=3)
    a, b, c = (Player(svc, room, acc) for acc in (ann, bob, cat))
    w = Player(svc, room)  # a watcher
    for k, p in enumerate((a, b, c)):
        p.ok("sit", seat=2 * k, buyin=20)
    assert {(e["account"], e["display_name"]) for e in w.of("seat")} == set(names.items())
    for viewer in (a, b, c, w):
        v = viewer.view()
        assert {s["account"]: s["display_name"] for s in v["seats"].values()} == names
        assert {k: s["account"] for k, s in v["seats"].items()} == {"0": ann.id, "2": bob.id, "4": cat.id}
        assert v["names"] == names
    you = c.view()["you"]
    assert (you["account"], you["display_name"], a.view()["you"]["display_name"]) == (cat.id, cat_name, "Ann")
    hand = w.of("hand")[-1]  # the deal names its seats
    assert {s["name"]: s["display_name"] for s in hand["seats"]} == names
    b.ok("chat", text="hello")
    assert w.of("chat")[-1]["display_name"] == "Bob Smith" and w.view()["chat"][-1]["display_name"] == "Bob Smith"
    for _ in range(2):
        play(turn_of([a, b, c]), "fold")
    result = w.of("result")[-1]  # the result names the hand's players; the stacks stay by account id
    assert result["names"] == names and set(result["stacks"]) == set(names)
    c.ok("leave")  # a player who left is still named in the last hand's result
    v = w.view()
    assert cat.id not in {s["account"] for s in v["seats"].values()} and v["names"] == names


def test_I_2_the_button_moves_one_seat_left_after_every_hand(svc):
    room, players = table(svc, 3, seats=[1, 4, 7], pause_s=0)
    fold_hands(svc, players, 4)
    buttons = [e["button"] for e in players[0].of("hand")]
    assert buttons[:5] == [1, 4, 7, 1, 4]


def test_I_3_to_I_6_blinds_before_any_card_live_blinds_and_a_blind_all_in(svc):
    room, (a, b, c) = table(svc, 3, pause_s=0, big_blind=8)
    kinds = [e["type"] for e in a.events]
    first = kinds.index("hand")
    # small and big blind posted before any card (1.3); the big blind all in for its whole stack (1.6)
    assert kinds[first + 1 : first + 4] == ["post", "post", "hole"]
    posts = a.of("post")
    assert [(x["kind"], x["amount"]) for x in posts] == [("small_blind", 4), ("big_blind", 8)]
    assert posts[1]["all_in"] is True and posts[0]["player"] == b.id and posts[1]["player"] == c.id
    # 1.5 live blinds: the button calls, the small blind completes, the big blind (all in) has no option
    play(a, "call")
    play(b, "call")
    v = a.view()
    assert v["hand"]["round"] != "preflop" or v["hand"]["to_act"] != c.id


def test_I_3_the_views_hand_names_its_blinds_for_a_page_opened_after_the_deal(svc):
    """The frame's ``hand.posts`` (the page marks the blinds from it): the ``post`` events of the
    hand, for a player, a watcher with an account and one without, and after a round is played."""
    room, (a, b, c) = table(svc, 3, big_blind=4)
    posts = [{k: e[k] for k in ("player", "kind", "amount", "all_in")} for e in a.of("post")]
    assert [(x["kind"], x["amount"]) for x in posts] == [("small_blind", 2), ("big_blind", 4)]
    late = Player(svc, room)  # opens the table after the deal: it saw no post event
    assert late.view()["hand"]["posts"] == posts == a.view()["hand"]["posts"]
    anonymous = svc.client.websocket_connect(f"/ws/{room}")
    with anonymous as ws:
        ws.send_text(json.dumps({"type": "hello", "v": 1}))
        assert ws.receive_json()["view"]["hand"]["posts"] == posts
    play(turn_of([a, b, c]), "call")
    assert b.view()["hand"]["posts"] == posts
    check_down([a, b, c])
    assert a.view()["hand"] is None  # the posts go with the hand (the next waits for the pause)


def test_I_5_the_big_blind_may_check_or_raise_when_nobody_raised(svc):
    room, (a, b) = table(svc, 2)
    sb = turn_of([a, b])
    bb = b if sb is a else a
    play(sb, "call")
    opts = legal(bb.view())
    assert set(opts) == {"fold", "check", "raise", "allin"} and opts["raise"]["min"] == 4


def test_I_7_sitting_out_keeps_the_seat_and_chips_and_deals_the_player_out_until_back(svc):
    room, (a, b, c) = table(svc, 3, pause_s=0)
    c.ok("sit_out")
    fold_hands(svc, [a, b, c], 1)
    fold_hands(svc, [a, b, c], 1)
    hand = a.of("hand")[-1]
    assert c.id not in [s["name"] for s in hand["seats"]]
    v = a.view()
    assert v["seats"]["2"]["sitting_out"] and v["seats"]["2"]["stack"] > 0
    c.ok("sit_in")
    fold_hands(svc, [a, b, c], 1)
    assert c.id in [s["name"] for s in a.of("hand")[-1]["seats"]]


def test_I_8_leaving_takes_the_chips_to_the_balance(svc):
    room, (a, b, c) = table(svc, 3)
    p = turn_of([a, b, c])
    bank = svc.store.bank(p.id)
    stack = p.view()["seats"][str(p.view()["you"]["seat"])]["stack"]
    p.ok("leave")  # in the hand, not having put anything in: folds at once, paid when the hand ends
    assert any(e["type"] == "fold_out" and e["player"] == p.id for e in a.events)
    others = [x for x in (a, b, c) if x is not p]
    while a.view()["hand"] is not None:
        q = turn_of(others)
        play(q, "fold")
    assert svc.store.bank(p.id) == bank + stack
    assert str(p.id) not in [s["account"] for s in a.view()["seats"].values()]
    assert not svc.store.check_banks()


def test_I_9_chips_added_during_a_hand_arrive_at_the_next_deal(svc):
    room, (a, b) = table(svc, 2, buyin=4, pause_s=0)
    seat = str(a.view()["you"]["seat"])
    before = a.view()["seats"][seat]["stack"]
    a.ok("add", amount=2)
    v = a.view()
    assert v["seats"][seat]["stack"] == before and v["seats"][seat]["pending"] == 2
    fold_hands(svc, [a, b], 1)
    start = {s["name"]: s["stack"] for s in a.of("hand")[-1]["seats"]}
    result = a.of("result")[-1]
    assert start[a.id] == result["stacks"][a.id] + 2


# --------------------------------------------------------------------------- Articles II, IX
def test_II_IX_the_deal_comes_from_the_committed_seed_and_burns_are_never_shown(svc):
    room, (a, b) = table(svc, 2)
    hand = a.of("hand")[-1]
    kinds = [e["type"] for e in a.events]
    assert kinds.index("hand") < kinds.index("hole")  # 9.2: the commitment before any card
    assert "seed" not in json.dumps(a.view()["hand"])
    check_down([a, b])
    result = a.of("result")[-1]
    seed = bytes.fromhex(result["seed"])  # 9.3: the seed after the hand
    assert hashlib.sha256(seed).hexdigest() == hand["commitment"] == result["commitment"]
    log = archived(svc, [a, b], result["id"])
    rec = log["record"]
    deck = shuffle(seed, range(52))
    assert len(rec["burns"]) == 3 and rec["cards_dealt"] == 4 + 3 + 5
    seen = cards_in([a.events, b.events])
    assert not seen & set(rec["burns"])  # 2.3: burns recorded in the log, never shown
    assert set(rec["hole"][a.id]) & cards_in(b.events) <= set(x for s in result["shows"] for x in s.get("cards", []))
    assert len(deck) == 52
    path = svc_log(log, "one.jsonl")
    rep = check_log(path)
    assert rep == {"hands": 1, "checked": 1, "scripted": 0, "failed": []}


def svc_log(log, name):
    import tempfile
    from pathlib import Path

    p = Path(tempfile.mkdtemp()) / name
    p.write_text(json.dumps(log["commit"]) + "\n" + json.dumps({"type": "hand", **log["record"]}) + "\n")
    return p


def test_IX_a_tampered_log_fails_its_check(svc):
    room, (a, b) = table(svc, 2)
    play(turn_of([a, b]), "fold")
    log = archived(svc, [a, b], a.of("result")[-1]["id"])
    hole = log["record"]["hole"]
    x, y = list(hole)
    hole[x][0], hole[y][0] = hole[y][0], hole[x][0]
    assert check_log(svc_log(log, "bad.jsonl"))["failed"][0]["problems"] == ["hole cards differ from the shuffle (9.3)"]


def test_II_5_the_hand_ends_at_once_when_one_player_remains_no_cards_shown(svc):
    room, (a, b, c) = table(svc, 3)
    for _ in range(2):
        play(turn_of([a, b, c]), "fold")
    result = a.of("result")[-1]
    assert result["shows"] == [] and result["boards"] == [[]] and not a.of("board")
    assert result["rake"] == 0  # 10.3: no rake before the flop


def test_II_6_open_flop_antes_the_big_blind_and_has_no_round_before_the_flop(svc):
    room, (a, b, c) = table(svc, 3, game="omaha_open")
    hand_at = [e["type"] for e in a.events].index("hand")
    evs = a.events[hand_at:]
    assert [(e["kind"], e["amount"]) for e in evs if e["type"] == "post"] == [("ante", 2)] * 3
    kinds = [e["type"] for e in evs]
    assert kinds.index("board") < kinds.index("round") and a.of("round")[0]["round"] == "flop"
    assert len(a.view()["you"]["hole"]) == 4 and len(a.view()["hand"]["boards"][0]) == 3


# --------------------------------------------------------------------------- Article III
@pytest.mark.parametrize(
    ("move", "article"),
    [({"kind": "check"}, "3.2"), ({"kind": "bet", "amount": 2}, "3.3"), ({"kind": "raise", "amount": 3}, "3.4"),
     ({"kind": "raise", "amount": 99}, "3.6")],
)  # fmt: skip
def test_III_the_betting_law_is_the_engines_and_names_its_article(svc, move, article):
    room, (a, b) = table(svc, 2)
    p = turn_of([a, b])
    r = p.cmd("act", **move)
    assert r["type"] == "error" and r["code"] == "illegal" and r["rule"].startswith(article), r


# --------------------------------------------------------------------------- Article V
def test_V_2_the_last_river_bettor_shows_first_and_V_3_a_muck_is_recorded_not_shown(svc):
    room, (a, b) = table(svc, 2)
    while a.view()["hand"]["round"] != "river":
        p = turn_of([a, b])
        opts = legal(p.view())
        play(p, "check" if "check" in opts else "call")
    bettor = turn_of([a, b])
    bet = legal(bettor.view())["bet"]
    play(bettor, "bet", amount=bet["min"])
    caller = a if bettor is b else b
    play(caller, "call")
    v = a.view()
    assert v["hand"]["phase"] == "showdown" and v["hand"]["to_act"] == bettor.id  # 5.2
    bettor.ok("show")
    if "muck" in legal(caller.view()):  # a beaten hand may muck (5.3)
        caller.ok("muck")
        result = a.of("result")[-1]
        assert [s["player"] for s in result["shows"]] == [bettor.id, caller.id]
        assert "cards" not in result["shows"][1] and result["shows"][1]["shown"] is False
        log = archived(svc, [a, b], result["id"])  # 5.4: the mucked hand is in the log
        assert log["record"]["shows"][1]["cards"] == log["record"]["hole"][caller.id]
        assert result["pots"][0]["winners"] == [bettor.id]  # 5.3: only a shown hand wins
    else:  # the caller's hand is the only one that can win a pot: it must be shown
        r = caller.cmd("muck")
        assert r["code"] == "illegal" and r["rule"].startswith("5.3")


def test_V_2_checked_through_the_first_active_player_left_of_the_button_shows_first(svc):
    room, (a, b, c) = table(svc, 3)
    while a.view()["hand"]["phase"] == "bet":
        p = turn_of([a, b, c])
        opts = legal(p.view())
        play(p, "check" if "check" in opts else "call")
    v = a.view()
    button = v["hand"]["button"]
    order = sorted(v["seats"], key=lambda s: (int(s) - button - 1) % 9)
    assert v["hand"]["to_act"] == v["seats"][order[0]]["account"]


# --------------------------------------------------------------------------- Article VII.6
def test_VII_6_three_sets_flops_at_once_no_burns_laying_secret_default_laying_on_time_out(svc):
    room, (a, b) = table(svc, 2, game="three_sets", practice=True, buyin=40)
    hand_at = [e["type"] for e in a.events].index("hand")
    evs = a.events[hand_at:]
    kinds = [e["type"] for e in evs]
    assert [e["board"] for e in evs if e["type"] == "board"] == [0, 1, 2] and kinds.index("board") < kinds.index(
        "round"
    )
    while a.view()["hand"]["phase"] == "bet":
        p = turn_of([a, b])
        play(p, "check")
    v = a.view()
    assert v["hand"]["phase"] == "lay" and sorted(v["hand"]["laying"]) == sorted([a.id, b.id])
    hole = a.view()["you"]["hole"]
    r = a.cmd("lay", sets=[hole[0:2], hole[0:2], hole[4:6]])
    assert r["code"] == "illegal" and r["rule"].startswith("7.6")
    mine = [[hole[5], hole[0]], [hole[1], hole[4]], [hole[2], hole[3]]]
    a.ok("lay", sets=mine)
    assert a.of("lay")[-1]["sets"] == mine and not [e for e in b.events if e["type"] == "lay"]
    assert cards_in([e for e in b.events if e["type"] == "laid"]) == set()  # layings secret until showdown
    svc.advance(59.0)
    assert b.view()["hand"]["phase"] == "lay"
    svc.advance(1.0)  # 60 s: the default laying 1-2 on A, 3-4 on B, 5-6 on C
    bh = b.of("hole")[-1]["cards"]
    assert b.of("lay")[-1]["sets"] == [bh[0:2], bh[2:4], bh[4:6]] and b.of("lay")[-1]["timeout"]
    assert a.view()["hand"]["round"] == "final"
    while a.view()["hand"] is not None and a.view()["hand"]["phase"] == "bet":
        play(turn_of([a, b]), "check")
    while a.view()["hand"] is not None:
        p = turn_of([a, b])
        p.ok("show")
    shows = a.of("result")[-1]["shows"]
    assert {s["player"]: [x["cards"] for x in s["sets"]] for s in shows} == {
        a.id: mine,
        b.id: [bh[0:2], bh[2:4], bh[4:6]],
    }


# --------------------------------------------------------------------------- Article VIII
def test_VIII_2_a_time_out_checks_if_free_folds_otherwise_never_calls(svc):
    room, (a, b) = table(svc, 2)
    sb = turn_of([a, b])
    svc.advance(14.9)
    assert turn_of([a, b]) is sb
    svc.advance(0.1)  # 15 s: the small blind owes one: folded
    act = a.of("action")[-1]
    assert (act["player"], act["action"], act.get("timeout")) == (sb.id, "fold", True)
    svc.advance(3.0)
    sb2 = turn_of([a, b])
    play(sb2, "call")
    svc.advance(15.0)  # the big blind owes nothing: checked
    act = a.of("action")[-1]
    assert act["action"] == "check" and act["timeout"] is True


def test_VIII_3_three_consecutive_time_outs_sit_the_player_out_and_VIII_4_a_disconnection_is_a_time_out(svc):
    room, (a, b, c) = table(svc, 3, pause_s=0)
    c.close()  # c leaves its socket: no grace, its turns time out
    for _ in range(12):
        p = turn_of([a, b])
        if p is not None:
            play(p, "check" if "check" in legal(p.view()) else "call")
        else:
            svc.advance(15.0)
        if a.view()["seats"]["2"]["sitting_out"]:
            break
    outs = [e for e in a.of("action") if e["player"] == c.id]
    assert [e.get("timeout") for e in outs][-3:] == [True, True, True]
    assert a.view()["seats"]["2"]["sitting_out"] and any(e["type"] == "sit_out" for e in a.events)


def test_VIII_5_a_choice_in_advance_is_played_when_the_action_arrives_only_if_legal(svc):
    room, (a, b, c) = table(svc, 3)
    first = turn_of([a, b, c])
    later = [p for p in (a, b, c) if p is not first]
    x, y = later
    x.ok("advance", choice="call")
    y.ok("advance", choice="check")  # the big blind? check is legal only if nobody raises
    raise_ = legal(first.view())["raise"]
    play(first, "raise", amount=raise_["min"])
    acts = {e["player"]: e for e in a.of("action")}
    assert acts[x.id]["action"] == "call" and acts[x.id]["advance"] == "call"
    discarded = [e for e in y.events if e["type"] == "advance_discarded"]
    assert (
        discarded and discarded[0]["choice"] == "check" and not any(e["type"] == "advance_discarded" for e in x.events)
    )
    assert turn_of([a, b, c]) is y


def test_VIII_5_a_choice_in_advance_is_withdrawn_and_then_nothing_is_played(svc):
    room, (a, b, c) = table(svc, 3)
    first = turn_of([a, b, c])
    x, y = [p for p in (a, b, c) if p is not first]
    assert x.view()["advance_choices"][-1] == "none"
    x.ok("advance", choice="fold")
    assert x.view()["you"]["advance"] == "fold"
    x.ok("advance", choice="none")
    assert x.view()["you"]["advance"] is None
    assert [e["choice"] for e in x.events if e["type"] == "advance_set"] == ["fold", None]
    before = (x.view(), svc.store.bank(x.id))
    e = x.cmd("advance", choice="none")  # nothing left to withdraw: refused, nothing changed
    assert e["type"] == "error" and e["code"] == "illegal" and e["rule"].startswith("8.5"), e
    assert (x.view(), svc.store.bank(x.id)) == before
    play(first, "call")
    if turn_of([a, b, c]) is not x:  # the withdrawn fold was not played when the action came
        play(turn_of([a, b, c]), "call")
    assert turn_of([a, b, c]) is x and not x.view()["seats"][str(x.view()["you"]["seat"])].get("folded")
    assert not any(ev["player"] == x.id for ev in a.of("action"))


# --------------------------------------------------------------------------- Article X
def test_X_rake_five_per_cent_capped_at_three_big_blinds_none_before_the_flop(svc):
    room, (a, b, c) = table(svc, 3, practice=True, buyin=200)
    p = turn_of([a, b, c])
    play(p, "allin")
    for _ in range(2):
        play(turn_of([a, b, c]), "call")
    while a.view()["hand"] is not None:
        turn_of([a, b, c]).ok("show")
    r = a.of("result")[-1]
    assert r["pots"][0]["amount"] == 600 and r["pots"][0]["rake"] == 6 == r["rake"]  # 5% = 30, cap 3 x 2
    assert sum(r["stacks"].values()) + r["rake"] == 600 and a.view()["rake_total"] == 6


def test_X_the_rake_goes_to_the_house_which_never_plays(svc):
    room, (a, b, c) = table(svc, 3)  # 8 each: a three-way all-in pot of 24, rake 1
    house = svc.store.bank("house")
    play(turn_of([a, b, c]), "allin")
    for _ in range(2):
        play(turn_of([a, b, c]), "call")
    while a.view()["hand"] is not None:
        turn_of([a, b, c]).ok("show")
    r = a.of("result")[-1]
    assert r["rake"] == 1 and svc.store.bank("house") == house + 1
    rec = archived(svc, [a, b, c], r["id"])["record"]  # 10.4: the rake is in the hand's log, with its rule
    assert rec["rake"] == 1 and [p["rake"] for p in rec["pots"]] == [1]
    assert rec["rake_rule"] == {"percent": RAKE_PERCENT, "cap": RAKE_CAP_BIG_BLINDS * 2, "per": "pot"}
    assert "house" not in [s["account"] for s in a.view()["seats"].values()]
    chips = svc.host.slots[room].room.chips()
    banks = sum(svc.store.bank(x.id) for x in (a, b, c))
    # one chip is one cent of the bank: three fresh banks, less the rake, are in the banks and at the table
    assert banks + sum(chips.values()) + 1 == 3 * START_BANK and not svc.store.check_banks()


# --------------------------------------------------------------------------- Article XI
def test_XI_8_the_edition_in_force_is_in_every_frame(svc):
    room, (a,) = table(svc, 1)
    assert a.view()["edition"] == EDITION and "seed 003" in EDITION


def test_XI_4_chat_is_for_the_seated_players_and_reaches_everyone(svc):
    room, (a, b) = table(svc, 2)
    w = Player(svc, room)
    a.ok("chat", text="good luck")
    assert b.of("chat")[-1]["text"] == "good luck" and w.view()["chat"][-1]["account"] == a.id
    assert w.cmd("chat", text="hi")["rule"].startswith("service: only a player seated")


def test_XI_7_a_disputed_hand_is_raised_with_its_identifier(svc):
    room, (a, b) = table(svc, 2)
    play(turn_of([a, b]), "fold")
    hid = a.of("result")[-1]["id"]
    a.ok("dispute", hand=hid, text="I think the pot was mispaid")
    assert a.of("dispute_recorded")[-1]["hand"] == hid
    assert svc.host.context.conduct.disputes[-1]["hand"] == hid
    assert a.cmd("dispute", hand="nope:1", text="x")["rule"].startswith("11.7")


# --------------------------------------------------------------------------- bad frames
BAD = [
    ("acting for another seat (out of turn)", "other", {"type": "act", "kind": "fold"}, "illegal", "3.1"),
    ("a command naming a seat", "turn", {"type": "act", "kind": "fold", "seat": 1}, "bad_frame", ""),
    ("an advance choice illegal now", "turn", {"type": "advance", "choice": "check"}, "illegal", "8.5"),
    ("an unknown advance choice", "other", {"type": "advance", "choice": "raise"}, "bad_frame", ""),
    ("a bet without an amount", "turn", {"type": "act", "kind": "bet"}, "bad_frame", ""),
    ("an amount that is not an int", "turn", {"type": "act", "kind": "raise", "amount": "4"}, "bad_frame", ""),
    ("an unknown command", "turn", {"type": "deal"}, "unknown_type", ""),
    ("a lay outside 3 Sets' laying", "turn", {"type": "lay", "sets": [["As", "Kd"]] * 3}, "illegal", "7.6"),
    ("a second seat", "turn", {"type": "sit", "seat": 5, "buyin": 2}, "illegal", "service: one seat"),
    ("a report of oneself", "turn", {"type": "report", "seat": -1, "reason": "abuse"}, "illegal", "11.4"),
    ("a report with no reason", "turn", {"type": "report", "seat": 0}, "bad_frame", ""),
    ("a chat too long", "turn", {"type": "chat", "text": "x" * 201}, "bad_frame", ""),
    ("show before the showdown", "turn", {"type": "show"}, "illegal", "5.1"),
    ("a dispute of a hand in play", "turn", {"type": "dispute", "hand": "HAND", "text": "x"}, "illegal", "11.7"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "who", "frame", "code", "rule"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_frame_is_refused_naming_its_rule_and_changes_nothing(svc, what, who, frame, code, rule):
    room, (a, b) = table(svc, 2)
    p = turn_of([a, b])
    sender = p if who == "turn" else (a if p is b else b)
    frame = json.loads(json.dumps(frame).replace("HAND", a.view()["hand"]["id"]))
    if frame.get("seat") == -1:
        frame["seat"] = sender.view()["you"]["seat"]
    before = (svc.store.counts(room), a.view(), b.view(), sender.turn)
    r = sender.cmd(frame.pop("type"), **frame)
    assert r["type"] == "error" and r["code"] == code and r["rule"].startswith(rule), r
    assert (svc.store.counts(room), a.view(), b.view(), sender.sync()) == before


def test_bad_frames_at_3_sets_laying_a_card_twice_or_on_a_fourth_board(svc):
    room, (a, b) = table(svc, 2, game="three_sets", practice=True, buyin=40)
    while a.view()["hand"]["phase"] == "bet":
        play(turn_of([a, b]), "check")
    h = a.view()["you"]["hole"]
    before = svc.store.counts(room)
    for sets in (
        [h[0:2], h[0:2], h[4:6]],
        [h[0:2], h[2:4], h[4:6], h[0:2]],
        [h[0:2], h[2:4], [h[4], b.view()["you"]["hole"][0]]],
    ):
        r = a.cmd("lay", sets=sets)
        assert r["code"] == "illegal" and r["rule"].startswith("7.6"), r
    assert svc.store.counts(room) == before and a.view()["you"]["laid"] is None


def test_sitting_at_a_vip_game_without_vip_is_refused(svc):
    for game in ("omaha5", "omaha3", "three_sets", "random"):
        owner = svc.account()
        room = svc.table(owner, game=game)
        r = Player(svc, room, owner).cmd("sit", seat=0, buyin=4)
        assert r["code"] == "illegal" and r["rule"].startswith("XI"), (game, r)
    room = svc.table(owner, game="three_sets", practice=True)
    assert Player(svc, room, owner).cmd("sit", seat=0, buyin=4)["type"] == "ack"  # the practice room


def test_a_restart_rebuilds_the_room_from_its_journal(svc, tmp_path):
    room, (a, b) = table(svc, 2)
    play(turn_of([a, b]), "call")
    want = {x.id: x.view() for x in (a, b)}
    new = svc.restart()
    try:
        for x in (a, b):
            x.close()
        got = {x.id: Player(new, room, x.acc).view() for x in (a, b)}
        assert got == want
    finally:
        new.close()
        svc.close = lambda: None  # the fixture's service is closed by restart


# --------------------------------------------------------------------------- Article XI through the protocol
def test_XI_5_XI_6_five_reporters_strike_suspends_and_a_suspended_account_cannot_report(svc):
    import sqlalchemy as sa

    from poker51.service.store import conduct

    room, players = table(svc, 6)
    x, reporters = players[0], players[1:]
    seat = x.view()["you"]["seat"]
    r = reporters[0].ok("report", seat=seat, reason="abuse")
    reporters[0].ok("report", seat=seat, reason="abuse")  # the same day: recorded, not added
    assert [e["counted"] for e in reporters[0].of("report_recorded")] == [True, False]
    for p in reporters[1:4]:
        p.ok("report", seat=seat, reason="collusion")
    assert not x.of("strike") and x.view()["you"]["status"] == "ok"
    reporters[4].ok("report", seat=seat, reason="cheating")  # the fifth different reporter: a strike
    strike = x.of("strike")[-1]
    assert strike["account"] == x.id and strike["number"] == 1 and not strike["closed"]
    assert strike["suspended_until"] == svc.clock.t + 3 * 86400
    assert x.view()["you"]["status"] == "suspended"
    # a suspended account's report is refused, naming 11.6, and changes nothing
    before = (svc.store.counts(room), reporters[0].view())
    r = x.cmd("report", seat=reporters[0].view()["you"]["seat"], reason="abuse")
    assert r["type"] == "error" and r["code"] == "illegal" and r["rule"].startswith("11.6"), r
    assert (svc.store.counts(room), reporters[0].view()) == before
    with svc.store.engine.connect() as conn:
        kinds = [row.kind for row in conn.execute(sa.select(conduct.c.kind).order_by(conduct.c.id))]
    assert kinds == ["report"] * 6 + ["strike"]
    # the book is rebuilt from the store by a new host
    new = svc.restart()
    try:
        assert new.host.context.conduct.status(x.id, new.clock.t)["state"] == "suspended"
        assert new.host.context.conduct.status(x.id, new.clock.t + 3 * 86400)["state"] == "ok"
    finally:
        new.close()
        svc.close = lambda: None  # the fixture's service is closed by restart


# --------------------------------------------------------------------------- Article X, conservation
def bot_session(svc, game, seed, hands, practice=False, vip=False):
    """Three bots at a ``game`` table playing random legal moves (all-ins rarer, time-outs now and
    then, a re-buy with ``add`` when a bot is broke) for ``hands`` hands.  At every hand: its
    start stacks = its end stacks + its rake, each pot's rake is 5% capped at three big blinds and
    none before the flop; at every step: the table's chips + the rake = the buy-ins and adds,
    and (not practice) the banks + the table's chips + the house's takings = three fresh banks."""
    import numpy as np
    from cardroom_helpers import bot_move

    rng = np.random.default_rng(seed)
    owner = svc.account()
    accs = [owner, svc.account(), svc.account()]
    if vip:  # VIP by the documented rule (hands played), set directly: this test is about chips
        for a in accs:
            svc.host.context.conduct.hands[a.id] = 10_000
    rid = svc.table(owner, game=game, deck="seedsequence", entropy=seed, pause_s=0, practice=practice,
                    start_players=3)  # fmt: skip
    players = [Player(svc, rid, a) for a in accs]
    for k, p in enumerate(players):
        p.ok("sit", seat=k, buyin=200)
    room = svc.host.slots[rid].room
    house0 = svc.store.bank("house")
    total_in, rake, seen, adds = 600, 0, 0, 0
    for _ in range(20_000):
        moved = False
        for p in players:
            v = p.view()
            cmd = bot_move(v, rng)
            if cmd is not None and cmd["type"] == "act" and cmd["kind"] == "allin" and rng.random() < 0.9:
                cmd = bot_move(v, rng)  # all-ins rarer: sessions last
            if cmd is not None and rng.random() < 0.97:
                a = p.cmd(cmd.pop("type"), **cmd)
                assert a["type"] == "ack", (cmd, a)
                moved = True
                break
        if not moved and not room._in_hand() and not room._can_deal():
            for p in players:  # 1.9 through the bank: a broke bot adds chips (arriving at the next deal)
                me = p.view()["you"]
                if p.view()["seats"][str(me["seat"])]["stack"] == 0 and adds < 6:
                    p.ok("add", amount=200)
                    total_in, adds, moved = total_in + 200, adds + 1, True
        if not moved:  # nobody acts: a time-out, or the next deal
            svc.advance(room.params["lay_s"] if room._in_hand() else 0.0)
        starts = {e["hand"]: e for e in players[0].of("hand")}
        results = players[0].of("result")
        for r in results[seen:]:
            rake += r["rake"]
            begin = sum(x["stack"] for x in starts[r["hand"]]["seats"])
            assert r["conserved"] is True and begin == sum(r["stacks"].values()) + r["rake"], r
            for pot in r["pots"]:
                cap = RAKE_CAP_BIG_BLINDS * room.table.bb
                want = 0 if not any(r["boards"]) else min(cap, pot["amount"] * RAKE_PERCENT // 100)
                assert pot["rake"] == want, (pot, r["boards"])
        seen = len(results)
        assert room.table.rake_total == rake and room.table.total_chips() == total_in
        if not practice:
            banks = sum(svc.store.bank(a.id) for a in accs)
            assert banks + sum(room.chips().values()) + svc.store.bank("house") - house0 == 3 * START_BANK
            assert svc.store.bank("house") - house0 == rake  # 10.2: the house takes the rake, never plays
        if seen >= hands or (not moved and not room._in_hand() and not room._can_deal()):
            break
    assert not svc.store.check_banks()
    return seen, rake


@pytest.mark.parametrize(
    ("game", "practice", "vip"),
    [("holdem", False, False), ("omaha", False, False), ("omaha_open", False, False), ("omaha5", False, True),
     ("omaha3", False, True), ("three_sets", True, False), ("random", False, True)],
)  # fmt: skip
def test_X_rake_and_conservation_at_every_hand_of_a_bot_played_session(svc, game, practice, vip):
    seen, rake = bot_session(svc, game, seed=len(game), hands=30, practice=practice, vip=vip)
    assert seen == 30


# --------------------------------------------------------------------------- Article VII.7
def test_VII_7_random_rotation_over_many_blocks_never_the_game_just_played_reproducible_from_its_seed(svc):
    from poker51.rulebook.games import RANDOM_BLOCK, RANDOM_GAMES, RANDOM_SEATS
    from poker51.rulebook.table import draw_game

    owner, other = svc.account(), svc.account()
    for acc in (owner, other):  # VIP by the documented rule (hands played), set directly
        svc.host.context.conduct.hands[acc.id] = 10_000
    room = svc.table(owner, game="random", deck="seedsequence", entropy=7, pause_s=0)
    a, b = Player(svc, room, owner), Player(svc, room, other)
    assert a.view()["n_seats"] == RANDOM_SEATS == 6
    a.ok("sit", seat=0, buyin=200)
    b.ok("sit", seat=3, buyin=200)
    blocks = 20
    for _ in range(blocks * RANDOM_BLOCK):
        v = a.view()
        k = v["hands"]
        assert v["block"] == {"block": (k - 1) // RANDOM_BLOCK + 1, "hand": (k - 1) % RANDOM_BLOCK + 1,
                              "of": RANDOM_BLOCK, "seats": RANDOM_SEATS}  # fmt: skip
        fold_hands(svc, [a, b], 1)
    hands = {e["hand"]: e for e in a.of("hand")}
    results = {e["hand"]: e for e in a.of("result")}
    games, previous = [], None
    for n in range(1, blocks * RANDOM_BLOCK + 1, RANDOM_BLOCK):
        rot = hands[n]["rotation"]
        seed = bytes.fromhex(results[n]["rotation_seed"])  # published after the hand, committed before it
        assert hashlib.sha256(seed).hexdigest() == rot["commitment"]
        assert (rot["game"], rot["candidates"]) == draw_game(seed, previous)
        assert rot["game"] != previous and previous not in rot["candidates"]
        for m in range(n, n + RANDOM_BLOCK):  # the whole block plays the game drawn
            assert hands[m]["game"] == rot["game"] and results[m]["game"] == rot["game"]
            assert ("rotation" in hands[m]) == (m == n)
        games.append(rot["game"])
        previous = rot["game"]
    assert set(games) == set(RANDOM_GAMES)  # every eligible game reached
    assert all(x != y for x, y in zip(games, games[1:]))
