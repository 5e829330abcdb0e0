"""Helpers shared by several test modules (not tests themselves): a small random abstraction,
a random policy, and the standard abstraction solved briefly and exported to a temporary folder.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from poker51.abstraction.tables import AbstractionArrays, build_abstraction
from poker51.export.receipt import write_receipt
from poker51.export.tables import export_tables, strategy_table
from poker51.games.abstract import build_game
from poker51.io import write_parquet
from poker51.solver.cfr import CFRPlusSolver
from poker51.solver.tree import GameBuilder

ITERATIONS = 20


def small_abstraction(C=3, B=4, seed=0, r_draw=(0, 3, 3)) -> AbstractionArrays:
    rng = np.random.default_rng(seed)
    cp = rng.random(C) + 0.2
    ht = rng.random((C, 6, B)) ** 3 + 0.01
    rt = rng.random((C, B)) ** 3 + 0.01
    return AbstractionArrays(
        "tiny", cp / cp.sum(), ht / ht.sum(-1, keepdims=True), rt / rt.sum(-1, keepdims=True), np.array(r_draw[:C])
    )


def random_policy(game, seed):
    rng = np.random.default_rng(seed)
    a = game.arrays
    raw = rng.random(game.num_actions) + 0.05
    sums = np.add.reduceat(raw, a.act_off[:-1])
    return raw / np.repeat(sums, a.num_actions)


# --------------------------------------------------------------------------- a grouped-set game
CLASS_P = (np.array([0.5, 0.5]), np.array([0.3, 0.7]))
# class c -> (c, bucket b), state index 3 c + b; bucket = strength
DRAW = (
    np.array([[0.6, 0.3, 0.1, 0, 0, 0], [0, 0, 0, 0.2, 0.3, 0.5]]),
    np.array([[0.5, 0.5, 0.0, 0, 0, 0], [0, 0, 0, 0.1, 0.1, 0.8]]),
)


def draw_game():
    """Ante 1.  Player 1 (knows its class) checks or bets 1; player 0 folds or calls a
    bet.  Draw: class -> (class, bucket).  Player 1, *forgetting its class*, checks
    or bets 2; player 0 folds or calls.  Showdown on buckets (ranked mode)."""
    b = GameBuilder("draw")
    strength = np.tile(np.arange(3), 2)

    def post(line, contrib):
        c0, c1 = contrib
        keys1 = [("post", line, s % 3) for s in range(6)]  # bucket only
        keys0 = [("post0", line, s) for s in range(6)]
        call = b.add_showdown((c0 + 2, c1 + 2), strengths=(strength, strength))
        after_bet = b.add_decision(0, [b.add_fold(0, (c0, c1 + 2)), call], infosets=keys0)
        check = b.add_showdown((c0, c1), strengths=(strength, strength))
        return b.add_decision(1, [check, after_bet], infosets=keys1)

    def draw(line, contrib):
        return b.add_private_chance(post(line, contrib), DRAW[0], DRAW[1])

    pre_bet = b.add_decision(0, [b.add_fold(0, (1, 2)), draw("bc", (2, 2))], infosets=[("pre0", c) for c in range(2)])
    pre = b.add_decision(1, [draw("k", (1, 1)), pre_bet], infosets=[("pre", c) for c in range(2)])
    root = b.add_private_chance(pre, CLASS_P[0][None, :], CLASS_P[1][None, :])
    return b.build(root)


# --------------------------------------------------------------------------- shared helpers
@functools.cache
def solved_standard() -> SimpleNamespace:
    tables = build_abstraction("standard", progress=False)
    ab = tables.arrays()
    game = build_game(ab)
    solver = CFRPlusSolver(game)
    solver.iterate(ITERATIONS)
    policy = solver.average_policy()
    return SimpleNamespace(
        tables=tables, ab=ab, game=game, policy=policy, df=strategy_table(game, policy, ab, "standard")
    )


@functools.cache
def exported_standard() -> SimpleNamespace:
    """``{root}/tables/standard.{parquet,json}``, ``{root}/abstraction/standard/{classes,buckets}.parquet``
    and ``{root}/tables/receipt.json``, in a temporary directory removed at exit."""
    s = solved_standard()
    root = Path(tempfile.mkdtemp(prefix="poker51-export-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    prov = {
        "p": 0.5,
        "iterations": ITERATIONS,
        "exploitability": None,
        "config_sha256": "test",
        "seeds": {"belief": 51},
    }
    paths = export_tables(s.game, s.policy, s.ab, "standard", root / "tables", prov)
    absdir = root / "abstraction" / "standard"
    write_parquet(s.tables.classes, absdir / "classes.parquet")
    write_parquet(s.tables.buckets, absdir / "buckets.parquet")
    rec = write_receipt(root / "tables" / "receipt.json", paths, {"variants": ["standard"]}, {"belief": 51})
    return SimpleNamespace(
        root=root,
        tables=root / "tables",
        abstraction=root / "abstraction",
        parquet=paths[0],
        json=paths[1],
        receipt=root / "tables" / "receipt.json",
        rec=rec,
        classes=absdir / "classes.parquet",
        buckets=absdir / "buckets.parquet",
    )


def hand_sample(n_hands: int, n_hands_with_marker: int, seed: int, variant: str) -> np.ndarray:
    """Sorted row indices into :func:`poker51.abstraction.classes.hand_table` (variant): a
    seeded sample of every dealt hand, plus (``wild``, ``bug``) a seeded sample of the hands
    holding the marker; ``n_hands=None`` gives every hand."""
    from poker51.abstraction.classes import hand_table

    ht = hand_table(variant)
    if n_hands is None:
        return np.arange(ht.hands.shape[0])
    rng = np.random.default_rng(seed)
    pick = rng.choice(ht.hands.shape[0], n_hands, replace=False)
    marked = np.flatnonzero(ht.marker)
    if marked.size:
        pick = np.concatenate([pick, rng.choice(marked, min(n_hands_with_marker, marked.size), replace=False)])
    return np.unique(pick)


#: the textbook category counts of the 2,598,960 five-card hands of 52 cards (no wild card)
TEXTBOOK_52 = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "high_card": 1_302_540,
}
