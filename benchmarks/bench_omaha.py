"""Benchmark of the Omahas' exact census (``poker51.rulebook.omaha_census``), with the machine beside it.

    .venv/bin/python benchmarks/bench_omaha.py [--games omaha,omaha3] [--every K] [--threads N]

For each game, warm (the kernels compiled and loaded before the clock): the per-board
histograms of every ``K``-th canonical board (``--every 1``, the default: all 134,459, which is
the whole census), in wall and CPU seconds, with the weighted counts and their SHA-256, so that
two commits' outputs compare byte for byte (run this script on each, e.g. with
``compare_commits.py --script bench_omaha.py --key omaha``).  The first line is the machine:
the time per dependent load at 8 MiB of ``bench_machine.py`` (the figure the other benchmarks
carry).
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="omaha,omaha3", help="comma-separated (omaha, omaha5, omaha3)")
    ap.add_argument("--every", type=int, default=1, help="time every K-th canonical board (default 1: all)")
    ap.add_argument("--threads", type=int, default=0, help="Numba threads (default: all)")
    args = ap.parse_args()
    if args.every < 1:
        ap.error(f"--every must be at least 1, got {args.every}")
    if args.threads < 0:
        ap.error(f"--threads must be 0 or more, got {args.threads}")
    import numba
    from bench_machine import CHASE_LOADS, _chase, cycle

    from poker51.rulebook.omaha_census import OMAHA_GAMES, board_histograms, canonical_boards

    games = args.games.split(",")
    bad = [g for g in games if g not in OMAHA_GAMES]
    if bad:
        ap.error(f"--games: no exact Omaha census for {', '.join(bad)} (choose from {', '.join(OMAHA_GAMES)})")
    if args.threads:
        numba.set_num_threads(args.threads)
    nxt = cycle(1 << 20)
    _chase(nxt, 1 << 20)
    t = time.perf_counter()
    _chase(nxt, CHASE_LOADS)
    print(f"machine: {(time.perf_counter() - t) / CHASE_LOADS * 1e9:.1f} ns per dependent load at 8 MiB")
    boards, weights = canonical_boards()
    boards, weights = boards[:: args.every], weights[:: args.every]
    for game in games:
        board_histograms(game, boards[:2])  # compile or load the kernels before the clock
        t, c = time.perf_counter(), time.process_time()
        h = board_histograms(game, boards)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        counts = (h * weights[:, None]).sum(axis=0)
        digest = hashlib.sha256(np.ascontiguousarray(h).tobytes()).hexdigest()[:16]
        print(
            f"{game}: {len(boards):,} boards in {wall:.1f} s wall, {cpu:.1f} CPU s on {numba.get_num_threads()}"
            f" threads; {int(counts.sum()):,} deals; counts {counts.tolist()}; histograms sha256 {digest}"
        )


if __name__ == "__main__":
    main()
