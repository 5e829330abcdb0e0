"""Benchmark and real run of the exact best response in G_ind (:mod:`poker51.realcard.gind`).

    .venv/bin/python benchmarks/bench_gind.py [--results results/smoke] [--variant standard] [--nash]

Reads the variant's abstraction tables (``{results}/{variant}``), its published table
(``{results}/tables``) and ``{results}/scores.parquet``; with ``--nash`` also the Nash solve's
policy (``{results}/{variant}/solve_p0/policy.npy``, its Riemann rows made a table by
:func:`poker51.export.tables.strategy_table`).  Per table it prints ``V_A`` (the abstract
best response's value: ``-guarantee`` from the scores, and recomputed on the abstract game
with the table's probabilities), ``V_ind``, the gap ``V_ind - V_A``, the exact G_ind value
of the abstract best-response human (never above ``V_ind``), and the wall and CPU seconds of
each stage (the kernels compile in the first table's run unless cached).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np


class Clock:
    """Wall and CPU (all threads) seconds since the last call."""

    def __init__(self) -> None:
        self.t, self.c = time.perf_counter(), time.process_time()

    def __call__(self) -> str:
        t, c = time.perf_counter(), time.process_time()
        out = f"{t - self.t:.1f} s ({c - self.c:.1f} CPU s)"
        self.t, self.c = t, c
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default="results/smoke")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--nash", action="store_true", help="also the Nash solve's table (solve_p0/policy.npy)")
    args = ap.parse_args()

    from poker51.abstraction.tables import AbstractionTables
    from poker51.export.schema import read_table, table_path
    from poker51.export.tables import strategy_table
    from poker51.games.abstract import build_game
    from poker51.io import read_parquet
    from poker51.realcard.gind import (
        abstract_human,
        game_policy,
        riemann_joint,
        strategy_value,
        table_arrays,
        v_ind,
        variant_deck,
    )
    from poker51.solver.best_response import best_response_policy, best_response_value

    res, variant = Path(args.results), args.variant
    clock = Clock()
    tables = AbstractionTables.load(res / variant, variant)
    gd = variant_deck(tables)
    ab = tables.arrays()
    game = build_game(ab)
    print(f"G_ind {variant} ({res}): {gd.n_hands:,} dealt hands, {gd.n_classes} classes, {gd.n_buckets} buckets, "
          f"{gd.values.size} strengths; load and abstract game {clock()}")  # fmt: skip
    joint = riemann_joint(gd)
    print(f"Riemann's exact (class, strength) distribution: {clock()}")
    scores = read_parquet(res / "scores.parquet")
    df, meta = read_table(table_path(res / "tables", variant))
    todo = [(f"published (p={meta['provenance']['p']})", float(meta["provenance"]["p"]), df)]
    if args.nash:
        nash = np.load(res / variant / "solve_p0" / "policy.npy")
        todo.append(("nash (p=0)", 0.0, strategy_table(game, nash, ab, variant)))
    for name, p, frame in todo:
        ta = table_arrays(frame, gd.n_classes, gd.n_buckets)
        row = scores[(scores["variant"] == variant) & np.isclose(scores["p"].astype(float), p)]
        v_a = -float(row["guarantee"].iloc[0]) if len(row) else float("nan")
        pol = game_policy(game, ta)
        v_a_table = best_response_value(game, pol, 0)
        response = best_response_policy(game, pol, 0)
        t_abs = clock()
        r = v_ind(gd, ta, joint)
        t_ind = clock()
        human = strategy_value(gd, ta, abstract_human(game, response, gd), joint)
        t_human = clock()
        print(f"--- table {name}")
        print(f"V_A   = {v_a:+.6f} jbits/hand (-guarantee in scores.parquet); {v_a_table:+.6f} recomputed ({t_abs})")
        print(f"V_ind = {r.value:+.6f} jbits/hand, exact best response in G_ind ({t_ind}: "
              f"{', '.join(f'{k} {v:.1f} s' for k, v in r.seconds.items() if k != 'riemann_strengths')})")  # fmt: skip
        print(f"gap V_ind - V_A = {r.value - v_a:+.6f} jbits/hand")
        print(f"abstract best-response human in G_ind = {human:+.6f} jbits/hand ({t_human}); "
              f"V_ind - it = {r.value - human:+.6f}")  # fmt: skip
        d = 5 - np.unpackbits(r.keep.astype(np.uint8)[:, None], axis=1).sum(axis=1)
        print("  best response's draw counts 0..5:", np.round(np.bincount(d, minlength=6) / gd.n_hands, 4).tolist())
        print(
            "  its openings x, b1, b2, b4, b8:", np.round(np.bincount(r.opening, minlength=5) / gd.n_hands, 4).tolist()
        )
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
