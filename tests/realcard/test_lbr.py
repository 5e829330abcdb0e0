"""The local best response: kernels against the plain twin in the engine, the posterior, and a
known answer against a Riemann that always checks or calls."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from poker51.cards import parse_cards
from poker51.play import engine
from poker51.play.engine import play_hand, play_match, shuffled_deck, stacked_deck
from poker51.policies import kernels as m
from poker51.policies.riemann import PublicState, Riemann
from poker51.policies.v05 import V05Player, line_contributions
from poker51.realcard import lbr
from poker51.realcard import lbr_kernels as k
from poker51.realcard.evidence import CheckCallPlayer
from poker51.realcard.lbr_plain import CheckCallModel, PlainLBR, TableModel, V05Model, draw_cards_plain
from poker51.rules import ANTE
from tests.helpers import solved_standard

N, TRIES = 24, 24 * 32
NAMES = ("fold", "call", "raise", "check", "bet")


@pytest.fixture(scope="module")
def setup():
    s = solved_standard()
    hands = m.hand_arrays("standard", s.tables.classes, s.tables.buckets)
    riemann = Riemann(s.df, "standard", s.tables.classes, s.tables.buckets)
    models = {
        "v0.6": m.policy_tuple(m.V06, hands, m.table_arrays(*riemann.kernel_arrays())),
        "v0.5": m.policy_tuple(m.V05, hands, belief=s.tables.belief_array()),
        "check-call": m.policy_tuple(m.CHECKCALL, hands),
    }
    players = {
        "v0.6": (riemann, TableModel(riemann)),
        "v0.5": (V05Player.from_tables("standard", s.tables), V05Model("standard", s.tables.belief_array())),
        "check-call": (CheckCallPlayer("standard"), CheckCallModel()),
    }
    return s, hands, models, players


def _lines(log: str) -> tuple[str, str]:
    pre, post = [], []
    for line in log.splitlines():
        e = json.loads(line)
        if e["event"] == "action":
            tok = "x" if e["kind"] == "check" else (f"b{e['amount']}" if e["kind"] == "bet" else e["kind"][0])
            (pre if e["round"] == "pre" else post).append(tok)
    return "-".join(pre), "-".join(post)


def test_random_stream_and_draws_are_the_plain_twins():
    keys = [0, 1, 2**63 + 5, 2**64 - 1]
    for key in keys:
        for stream, j, t in [(0, 0, 0), (0, 7, 13), (1, 2**20, 15), (1, 3, 0)]:
            assert k.uniform(np.uint64(key), stream, j, t) == k.uniform_plain(key, stream, j, t)
    avail = np.arange(1, 47, dtype=np.int64)
    out = np.empty(14, np.int64)
    for j in range(50):
        k.draw_cards(np.uint64(99), 0, j, avail, 46, 14, out)
        assert out.tolist() == draw_cards_plain(99, 0, j, list(range(1, 47)), 14)
        assert len(set(out.tolist())) == 14 and avail.tolist() == list(range(1, 47))  # restored


@pytest.mark.parametrize("policy", ["v0.6", "v0.5", "check-call"])
def test_kernel_hands_are_the_engine_with_the_plain_twin(setup, policy):
    """Hand for hand, the kernel plays what the engine plays with PlainLBR in seat H and the
    real Riemann in seat R: the same lines, the same nets."""
    _, hands, models, players = setup
    n, seed = 25, 17
    df = lbr.lbr_run(models[policy], "standard", policy, n, seed, N, TRIES)
    player, model = players[policy]
    twin = PlainLBR("standard", model, hands, lbr.hand_keys(seed, 0, n), N, TRIES)
    res = play_match({"H": twin, "R": player}, n, seed, "standard", stacks={"H": 100, "R": 100})
    assert [r.net["H"] for r in res] == df["net"].tolist()
    assert [_lines(r.log) for r in res] == list(zip(df["pre_line"], df["post_line"]))
    assert df["fallbacks"].sum() == twin.fallbacks
    assert df["h_draw"].between(0, 5).all() and (df["particles"] <= N).all()


def test_runs_are_reproducible_and_chunk_free(setup):
    _, _, models, _ = setup
    a = lbr.lbr_run(models["v0.6"], "standard", "v0.6", 30, 3, N, TRIES)
    b = lbr.lbr_run(models["v0.6"], "standard", "v0.6", 30, 3, N, TRIES, chunk=7)
    pd.testing.assert_frame_equal(a, b)
    assert a["hand"].tolist() == list(range(30))
    with pytest.raises(ValueError):
        lbr.lbr_run(models["v0.6"], "standard", "v0.6", 3, 3, 10, 5)


def test_posterior_excludes_impossible_hands(setup):
    """Every candidate kept avoids LBR's cards and gives Riemann's observed actions (checked with
    Riemann.decide itself); weights 1/count make a distribution; after the draw every candidate
    draws Riemann's public count and avoids LBR's drawn cards too."""
    s, hands, models, players = setup
    riemann = players["v0.6"][0]
    M = models["v0.6"]
    deck = np.array(shuffled_deck("standard", 5, 0), dtype=np.int64)
    hand = set(deck[:5].tolist())
    avail = np.array(sorted(set(deck.tolist()) - hand), dtype=np.int64)
    key = lbr.hand_keys(5, 0, 1)[0]
    X = np.empty((64, 14), np.int64)
    obs_line, obs_act = np.array([m.line_id("b4"), 0]), np.array([m.RAISE, 0])
    count, tries = k.pre_extend(key, avail, avail.size, M, 3, obs_line, obs_act, 1, 64, 64 * 64, X, 0, 0)
    assert 0 < count <= 64 and tries >= count
    w = np.full(count, 1.0 / count)
    assert w.sum() == pytest.approx(1.0)
    for row in X[:count]:
        assert len(set(row.tolist())) == 14 and not hand & set(row.tolist())
        assert riemann.decide(sorted(row[:5].tolist()), PublicState(0, 3, -1, "b4", ""))[0] == "raise"
    # after the draw: Riemann drew 3, LBR saw its 3 drawn cards; Riemann checked back after x, then bet
    drawn = deck[10:13].tolist()
    seen = np.uint64(sum(1 << c for c in list(hand) + drawn))
    F = np.empty((64, 5), np.int64)
    pre_line, pre_act = np.array([m.line_id("b4"), m.line_id("b4-r-r")]), np.array([m.RAISE, m.CALL])
    post_line, post_act = np.array([m.line_id("x"), 0]), np.array([m.BET, 0])
    pre_done = m.PRE_DONE.index("b4-r-r-c")
    count, _ = k.post_extend(
        key, M, 3, 3, seen, pre_line, pre_act, 2, pre_done, post_line, post_act, 1, 64, 64 * 64, F, 0, 0
    )
    assert count > 0
    for f in F[:count]:
        assert not (set(f.tolist()) & (hand | set(drawn)))
        assert riemann.decide(f.tolist(), PublicState(1, 3, 3, "b4-r-r-c", "x"))[0] == "bet"
    h, f = np.empty(5, np.int64), np.empty(5, np.int64)
    for j in range(200):
        if k.post_candidate(key, j, M, 3, seen, h, f):
            mask, d = lbr_house(h)
            assert d == 3 and set(h[[i for i in range(5) if mask >> i & 1]].tolist()) <= set(f.tolist())
            assert not set(h.tolist()) & (hand | set(drawn))


def lbr_house(h):
    from poker51.hands.house import house_keep

    return house_keep(h.tolist())


def test_known_answer_nuts_against_check_call(setup):
    """A royal flush against a Riemann that checks or calls: LBR stands pat, bets 8 before and
    after the draw, is called twice and wins exactly 1 + 8 + 8 = 17 jbits."""
    _, _, models, players = setup
    deck = stacked_deck("standard", parse_cards("As Ks Qs Js Ts  9h 9d 4c 7s 2d"))
    out = np.zeros(7, np.int64)
    k.lbr_hand(np.array(deck, dtype=np.int64), np.uint64(1), models["check-call"], 128, 4096, out)
    assert out[0] == 17 and k.decode_line(out[1]) == "b8-c" and k.decode_line(out[2]) == "b8-c" and out[3] == 0
    res = play_hand(
        {"H": PlainLBR("standard", CheckCallModel(), setup[1], [1], 128, 4096), "R": players["check-call"][0]},
        stacks={"H": 100, "R": 100},
        deck=deck,
    )
    assert res.net["H"] == 17


def test_known_answer_showdown_equity_against_check_call(setup):
    """Against a check-call Riemann that stood pat (its House rule drew 0), LBR's posterior after
    the draw is uniform over the pat hands of the cards it has not seen, so its bet must follow
    the exact showdown equity E of its final hand (enumerated over every such hand): bet 8 when
    E > 1/2, check when E < 1/2, and its sampled equity must agree with E."""
    _, H, models, _ = setup
    M = models["check-call"]
    pat_rows = H.by_draw[H.draw_start[0] : H.draw_start[1]].astype(np.int64)
    pat_bits = H.by_draw_mask[H.draw_start[0] : H.draw_start[1]]
    pat_strength = H.strength[[m.colex(r) for r in pat_rows]]
    seed, n_part, checked = 23, 256, 0
    for i in range(6000):
        deck = np.array(shuffled_deck("standard", seed, i), dtype=np.int64)
        if H.house_mask[m.colex(np.sort(deck[5:10]))] != 31:
            continue
        key = lbr.hand_keys(seed, i, 1)[0]
        out = np.zeros(7, np.int64)
        k.lbr_hand(deck, key, M, n_part, 64 * n_part, out)
        # LBR's keep, recomputed with the same sub-kernels, and its final hand
        avail = np.array(sorted(set(deck.tolist()) - set(deck[:5].tolist())), dtype=np.int64)
        X = np.empty((n_part, 14), np.int64)
        z = np.zeros(2, np.int64)
        cnt, _ = k.pre_extend(key, avail, avail.size, M, 0, z, z, 0, n_part, 64 * n_part, X, 0, 0)
        mask = k.best_mask(M, deck[:5].copy(), X, cnt, k.r_strengths(M, X, cnt))
        hd = 5 - bin(mask).count("1")
        assert out[3] == hd and out[4] == 0
        if k.decode_line(out[1]).endswith("f"):
            continue
        final = [int(c) for j, c in enumerate(deck[:5]) if mask >> j & 1] + deck[10 : 10 + hd].tolist()
        s_h = H.strength[m.colex(np.sort(np.array(final)))]
        seen = sum(1 << int(c) for c in deck[:5].tolist() + deck[10 : 10 + hd].tolist())
        ok = (pat_bits & np.uint64(seen)) == 0
        E = float(((pat_strength[ok] < s_h) + 0.5 * (pat_strength[ok] == s_h)).mean())
        pre_line = k.decode_line(out[1])
        post = k.decode_line(out[2])
        if E > 0.6:
            assert post == "b8-c", (i, E, post)
        elif E < 0.4:
            assert post == "x-x", (i, E, post)
        # the posterior sample's equity against the exact one
        F = np.empty((n_part, 5), np.int64)
        pre_done = m.PRE_DONE.index(pre_line)
        pl = np.zeros(2, np.int64)
        cnt, _ = k.post_extend(
            key, M, hd, 0, np.uint64(seen), pl, pl, 0, pre_done, pl, pl, 0, n_part, 64 * n_part, F, 0, 0
        )
        w = np.array(
            [1.0 if s_h > H.strength[m.colex(f)] else 0.5 if s_h == H.strength[m.colex(f)] else 0.0 for f in F[:cnt]]
        )
        assert cnt == n_part and abs(w.mean() - E) <= 4.5 * np.sqrt(max(E * (1 - E), 0.01) / cnt)
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_summary_is_the_per_hand_mean_with_a_t_interval(setup):
    _, _, models, _ = setup
    df = lbr.lbr_run(models["check-call"], "standard", "check-call", 60, 9, N, TRIES)
    (score,) = lbr.summarize_lbr(df, 9, N, TRIES)
    x = df["net"].to_numpy()
    half = stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size)
    assert score.mean == pytest.approx(x.mean()) and score.ci_high == pytest.approx(x.mean() + half)
    assert score.hands == 60 and score.columns()["lbr_hands"] == 60
    assert score.columns()["lbr_win_ci_low"] == pytest.approx(x.mean() - half)


def test_hand_keys_and_decks():
    keys = lbr.hand_keys(4, 10, 3)
    assert keys.dtype == np.uint64 and keys.tolist() == [
        int(np.random.SeedSequence([4, i, lbr.LBR_DOMAIN]).generate_state(1, np.uint64)[0]) for i in (10, 11, 12)
    ]
    decks = lbr.hand_decks("wild", 4, 10, 2)
    assert decks.shape == (2, 52) and decks[1].tolist() == shuffled_deck("wild", 4, 11)


def test_policy_model_refuses_bad_input(setup):
    tables = setup[0].tables
    with pytest.raises(ValueError):
        lbr.policy_model("v0.7", "standard", tables)
    with pytest.raises(ValueError):
        lbr.policy_model("v0.6", "standard", tables)


def _fold_net(tokens: list[str], h: float, r: float) -> float:
    """H's net when ``tokens`` (H first) end with a fold: the folder loses what it put in."""
    return -h if (len(tokens) - 1) % 2 == 0 else r


def test_the_kernel_ante_follows_the_rules_ante(setup, monkeypatch):
    """The kernel reads :data:`poker51.rules.ANTE` (a module global, frozen when Numba compiles).
    Run in Python (``py_func``) with the ante patched to 2, every hand's net is what the rules give
    for its lines with antes of 2: a fold wins or loses the folder's contribution, a showdown the
    common one (0 when split).  A literal ante anywhere in the hand's accounting breaks it."""
    _, _, models, _ = setup
    assert k.ANTE == ANTE == 1
    ante = 2
    monkeypatch.setattr(k, "ANTE", ante)
    contrib = [line_contributions(p.split("-"), (ante, ante))[0] for p in m.PRE_DONE]
    monkeypatch.setattr(k, "PRE_DONE_CONTRIB", np.array(contrib, np.int64))
    n, seed = 30, 5
    decks, keys = lbr.hand_decks("standard", seed, 0, n), lbr.hand_keys(seed, 0, n)
    ends = {"pre fold": 0, "post fold": 0, "showdown": 0}
    for i in range(n):
        out = np.zeros(7, np.int64)
        k.lbr_hand.py_func(decks[i], keys[i], models["v0.5"], N, TRIES, out)
        pre, post = k.decode_line(out[1]).split("-"), k.decode_line(out[2])
        h, r = line_contributions(pre, (ante, ante))
        if pre[-1] == "f":
            assert out[0] == _fold_net(pre, h, r) and post == ""
            ends["pre fold"] += 1
            continue
        h, r = line_contributions(post.split("-"), (h, r))
        if post.endswith("f"):
            assert out[0] == _fold_net(post.split("-"), h, r)
            ends["post fold"] += 1
        else:
            assert h == r and abs(out[0]) in (0, h)
            ends["showdown"] += 1
    assert min(ends.values()) > 0, ends


def test_the_v05_kernel_pot_follows_the_rules_ante(setup, monkeypatch):
    """v0.5's kernel answers before the draw with the pot of two antes (:data:`poker51.rules.ANTE`)."""
    _, _, models, _ = setup
    seen = []

    def spy(read, bluff, line, pot0):
        seen.append(pot0)
        return m.CHECK

    monkeypatch.setattr(m, "ANTE", 2)
    monkeypatch.setattr(m, "v05_action", spy)
    h = np.array(sorted(parse_cards("As Kd 9c 6s 3h")), np.int64)
    out = np.empty(2, np.int64)
    m.pre_actions.py_func(models["v0.5"], h, 2, np.array([0, 2], np.int64), out)
    assert seen == [4.0, 4.0] and out.tolist() == [m.CHECK, m.CHECK]


def test_the_kernel_is_the_twin_at_another_ante(setup, monkeypatch):
    """At an ante of 2 (the kernel's ``py_func`` with its global patched, the engine's likewise) the
    kernel still plays what the plain twin plays in the engine against v0.6, whose table does not
    read the pot: LBR's choices, which weigh the antes in the pot, and its nets follow the ante."""
    _, hands, models, players = setup
    ante = 2
    monkeypatch.setattr(k, "ANTE", ante)
    contrib = [line_contributions(p.split("-"), (ante, ante))[0] for p in m.PRE_DONE]
    monkeypatch.setattr(k, "PRE_DONE_CONTRIB", np.array(contrib, np.int64))
    monkeypatch.setattr(engine, "ANTE", ante)
    n, seed = 25, 17
    decks, keys = lbr.hand_decks("standard", seed, 0, n), lbr.hand_keys(seed, 0, n)
    got = []
    for i in range(n):
        out = np.zeros(7, np.int64)
        k.lbr_hand.py_func(decks[i], keys[i], models["v0.6"], N, TRIES, out)
        got.append((int(out[0]), k.decode_line(out[1]), k.decode_line(out[2])))
    player, model = players["v0.6"]
    twin = PlainLBR("standard", model, hands, keys, N, TRIES)
    res = play_match({"H": twin, "R": player}, n, seed, "standard", stacks={"H": 100, "R": 100})
    assert [(r.net["H"], *_lines(r.log)) for r in res] == got
    assert all(json.loads(r.log.splitlines()[1])["amount"] == ante for r in res)
