"""Benchmark of the census stage.

    .venv/bin/python benchmarks/bench_census.py [--repeat 20] [--no-compile]

Prints (times are wall clock, best of ``--repeat`` unless noted):

1. the first call of the census kernel with an empty Numba cache (compile) and with
   a filled one (cached load), each in a fresh interpreter;
2. one full census of the 52-card deck, warm;
3. every configured deck plus every order search (10! for wild and bug), warm, and
   the whole stage (counts, orders, claims, removal table);
4. the same 52-card census done with phevaluator (``pip install phevaluator``, the
   ``bench`` extra) hand by hand, and the ratio, measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from itertools import combinations

import numpy as np
from _timing import best_of

DECKS = ["full52", "standard", "wild", "bug", "suit_two", "club_any"]


def first_call(cache_dir: str) -> float:
    code = (
        "import time; t = time.perf_counter();"
        "from poker51.census.count import census; from poker51.census.decks import named_deck;"
        "census(named_deck('wild'));"
        "print(time.perf_counter() - t)"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def census_phevaluator() -> np.ndarray:
    """Category counts of every 52-card hand with phevaluator's C evaluator (1 = best of 7,462)."""
    from phevaluator import _pheval

    # phevaluator rank thresholds: straight flush <= 10, quads <= 166, full house <= 322,
    # flush <= 1599, straight <= 1609, trips <= 2467, two pair <= 3325, pair <= 6185
    bounds = np.array([10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462])
    evaluate = _pheval.evaluate_5cards
    ranks = np.fromiter((evaluate(*h) for h in combinations(range(52), 5)), np.int32, count=2_598_960)
    per = np.bincount(np.searchsorted(bounds, ranks), minlength=9)  # best first
    return per[::-1]  # high card .. straight flush, as poker51 category ids 0..8


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--no-compile", action="store_true", help="skip the compile / cached-load timing")
    args = parser.parse_args()

    import numba

    print(f"cpus {os.cpu_count()}, numba {numba.__version__}, threads {numba.get_num_threads()}")
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as cache:
            compile_s = first_call(cache)
            cached_s = first_call(cache)
        print(f"first census call in a fresh interpreter: compile {compile_s:.2f} s, cached load {cached_s:.2f} s")

    from poker51.census.count import census
    from poker51.census.decks import named_deck
    from poker51.census.orders import deck_orders
    from poker51.stages.census import run_census, run_removal

    full52 = named_deck("full52")
    census(full52)

    def one_census():
        census.cache_clear()
        census(full52)

    t_one = best_of(one_census, args.repeat)
    print(f"census of one 52-card deck (2,598,960 hands), warm: {t_one * 1e3:.1f} ms (best of {args.repeat})")

    def all_decks():
        census.cache_clear()
        deck_orders.cache_clear()
        for name in DECKS:
            deck_orders(census(named_deck(name)))

    scratch = tempfile.TemporaryDirectory()
    out = {k: os.path.join(scratch.name, f"{k}.parquet") for k in ("counts", "orders", "claims")}
    out["claims_md"] = os.path.join(scratch.name, "claims.md")

    def stage():
        census.cache_clear()
        deck_orders.cache_clear()
        run_census(DECKS, out)
        run_removal(os.path.join(scratch.name, "removal.parquet"))

    all_decks()
    t_all = best_of(all_decks, max(3, args.repeat // 4))
    print(f"all {len(DECKS)} decks + order searches (2 x 10!, 4 x 9!), warm: {t_all:.3f} s")
    t_stage = best_of(stage, 3)
    print(f"whole stage (counts, orders, claims, removal table), warm: {t_stage:.3f} s")

    try:
        import phevaluator  # noqa: F401
    except ImportError:
        print("phevaluator not installed (pip install phevaluator): no comparison")
        return 0
    t = time.perf_counter()
    theirs = census_phevaluator()
    t_phe = time.perf_counter() - t
    ours = census(full52).category_counts()[:9]
    agree = "counts agree" if np.array_equal(theirs, ours) else f"COUNTS DIFFER: {theirs} vs {ours}"
    print(
        f"phevaluator census of the same deck (C evaluator called hand by hand from Python): "
        f"{t_phe:.2f} s, {agree}; ratio phevaluator / poker51 = {t_phe / t_one:.0f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
