"""Benchmark of the rule book's games (issue 11).

    .venv/bin/python benchmarks/bench_rulebook.py [--repeat 5] [--full] [--omaha-all]

Prints (wall clock; warm means the Numba kernels are compiled and loaded first):

1. the Hold'em census of all 133,784,560 seven-card sets, warm, best of ``--repeat``, on
   every Numba thread (target: at most 0.6 s on 2 cores) and on one;
2. phevaluator's 7-card evaluator (``pip install -e '.[bench]'``) on the same job, in the
   same run: by default the 3,365,856 sets of the 32 cards 7c..As (every set read, counts
   compared with ours on those cards) and the time for all sets extrapolated from it;
   ``--full`` reads all 133,784,560 sets and compares every count; and what a user waits for,
   ``poker51 census --game holdem --json`` run as a process (start-up, imports, the kernels'
   cache load, the census and the JSON);
3. the exact census of OG Omaha (every deal, 463,563,500,400) with its progress, and with
   ``--omaha-all`` also Omaha (5 Cards) and Omaha (3 Cards) (target: each at most 10
   minutes on 2 cores);
4. the seeded estimate's rate (deals per second), and random legal play at a table (hands
   per second, scripted checks of conservation included).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from itertools import combinations
from math import comb

import numpy as np
from _timing import best_of

TARGET_HOLDEM = 0.6
TARGET_OMAHA = 600.0


def phevaluator_counts(cards: list[int]) -> np.ndarray:
    """Category counts (ids 0..9, royal flush 9) of every seven-card set of ``cards`` with
    phevaluator's C evaluator called set by set (rank 1 = royal flush ... 7462 = worst)."""
    from phevaluator import _pheval

    bounds = np.array([1, 10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462])  # royal .. high card
    evaluate = _pheval.evaluate_7cards
    ranks = np.fromiter((evaluate(*s) for s in combinations(cards, 7)), np.int32, count=comb(len(cards), 7))
    return np.bincount(np.searchsorted(bounds, ranks), minlength=10)[::-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--full", action="store_true", help="phevaluator on all 133,784,560 sets")
    parser.add_argument("--omaha-all", action="store_true", help="also time Omaha (5 Cards) and (3 Cards) exactly")
    args = parser.parse_args()

    import numba

    from poker51.rulebook.census import holdem_census

    threads = numba.get_num_threads()
    print(f"cpus {os.cpu_count()}, numba {numba.__version__}, threads {threads}")
    t = time.perf_counter()
    ours = holdem_census()
    print(f"Hold'em census, first call (compile or cache load included): {time.perf_counter() - t:.2f} s")
    t_all = best_of(holdem_census, args.repeat)
    t_one = best_of(lambda: holdem_census(threads=1), max(1, args.repeat // 2))
    ok = "OK" if t_all <= TARGET_HOLDEM else "ABOVE TARGET"
    print(
        f"Hold'em census of all {comb(52, 7):,} seven-card sets, warm: {t_all:.3f} s on {threads} threads"
        f" (target {TARGET_HOLDEM} s on 2 cores: {ok}); {t_one:.3f} s on 1 thread"
    )

    exe = os.path.join(os.path.dirname(sys.executable), "poker51")
    cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "poker51.cli"]
    t_cmd = best_of(
        lambda: subprocess.run([*cmd, "census", "--game", "holdem", "--json"], check=True, capture_output=True), 3
    )
    print(f"`poker51 census --game holdem --json` as a process, warm cache: {t_cmd:.2f} s (best of 3)")

    try:
        import phevaluator  # noqa: F401
    except ImportError:
        print("phevaluator not installed (pip install -e '.[bench]'): no comparison")
    else:
        cards = list(range(52)) if args.full else list(range(20, 52))
        n = comb(len(cards), 7)
        t = time.perf_counter()
        theirs = phevaluator_counts(cards)
        t_phe = time.perf_counter() - t
        mine = ours if args.full else holdem_census(cards)
        agree = "counts agree" if np.array_equal(theirs, mine) else f"COUNTS DIFFER: {theirs} vs {mine}"
        full = t_phe * comb(52, 7) / n
        how = "measured" if args.full else f"extrapolated from the {n:,} sets of the cards 7c..As"
        print(
            f"phevaluator 7-card evaluator (C, called set by set from Python): {n:,} sets in {t_phe:.2f} s,"
            f" {agree}; all sets {full:.1f} s ({how}); ratio phevaluator / poker51 = {full / t_all:.0f}x"
        )

    from poker51.rulebook.omaha_census import canonical_boards, omaha_census

    t = time.perf_counter()
    canonical_boards()
    print(f"suit classes of the 2,598,960 boards (134,459): {time.perf_counter() - t:.2f} s")
    for game in ("omaha", "omaha5", "omaha3") if args.omaha_all else ("omaha",):
        omaha_census(game, ranks=[9, 10, 11, 12, 0])  # compile
        t = time.perf_counter()
        counts = omaha_census(game, progress=True)
        dt = time.perf_counter() - t
        ok = "OK" if dt <= TARGET_OMAHA else "ABOVE TARGET"
        print(
            f"exact census of {game}: {int(counts.sum()):,} deals in {dt:.1f} s on {threads} threads"
            f" (target {TARGET_OMAHA:.0f} s on 2 cores: {ok})"
        )

    from poker51.rulebook.estimate import game_census

    game_census("omaha", "estimate", 1000, 1)
    t = time.perf_counter()
    game_census("omaha", "estimate", 2_000_000, 1)
    rate = 2_000_000 / (time.perf_counter() - t)
    print(f"seeded estimate of OG Omaha: {rate:,.0f} deals/s (10^8 deals: {1e8 / rate:.0f} s; every game is exact)")

    from poker51.rulebook.simulate import play_hands
    from poker51.rulebook.table import Table

    rng = np.random.default_rng(0)
    t = time.perf_counter()
    hands = 0
    for k in range(40):
        table = Table("holdem", 2, [(s, f"p{s}", 200) for s in range(6)])
        hands += len(play_hands(table, 25, lambda o: o[rng.integers(len(o))], entropy=k))
    dt = time.perf_counter() - t
    print(f"random legal Hold'em at six seats: {hands / dt:,.0f} hands/s (committed shuffles, settlement, records)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
