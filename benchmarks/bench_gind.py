"""Benchmark and real run of the exact best response in G_ind (:mod:`poker51.realcard.gind`).

    .venv/bin/python benchmarks/bench_gind.py [--results results/smoke] [--variant standard]

Reads the variant's abstraction tables (``{results}/{variant}``), its published table
(``{results}/tables``) and ``{results}/scores.parquet`` (the published table's guarantee:
``V_A = -guarantee`` of the row whose ``p`` is the table's), computes ``V_ind``, and prints
``V_A``, ``V_ind``, their gap and the seconds of each stage (a second call is timed after a
first one that compiles the kernels, unless ``--once``).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default="results/smoke")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--once", action="store_true", help="one timed run (compile time included)")
    args = ap.parse_args()

    from poker51.abstraction.tables import AbstractionTables
    from poker51.export.schema import read_table, table_path
    from poker51.io import read_parquet
    from poker51.realcard.gind import riemann_joint, table_arrays, v_ind, variant_deck

    res = Path(args.results)
    t = time.perf_counter()
    tables = AbstractionTables.load(res / args.variant, args.variant)
    df, meta = read_table(table_path(res / "tables", args.variant))
    gd = variant_deck(tables)
    ta = table_arrays(df, gd.n_classes, gd.n_buckets)
    t_load = time.perf_counter() - t
    t = time.perf_counter()
    joint = riemann_joint(gd)
    t_joint = time.perf_counter() - t
    if not args.once:
        v_ind(gd, ta, joint)  # compiles the kernels
    t = time.perf_counter()
    r = v_ind(gd, ta, joint)
    t_run = time.perf_counter() - t
    p = meta["provenance"]["p"]
    scores = read_parquet(res / "scores.parquet")
    row = scores[(scores["variant"] == args.variant) & np.isclose(scores["p"].astype(float), float(p))]
    v_a = -float(row["guarantee"].iloc[0]) if len(row) else float("nan")
    print(f"G_ind {args.variant}, table p={p} ({res}): {gd.n_hands:,} dealt hands, {gd.n_classes} classes, "
          f"{gd.n_buckets} buckets, {gd.values.size} strengths")  # fmt: skip
    print(f"V_A   = {v_a:+.6f} jbits/hand (abstract best response, -guarantee)")
    print(f"V_ind = {r.value:+.6f} jbits/hand (exact best response in G_ind)")
    print(f"gap V_ind - V_A = {r.value - v_a:+.6f}")
    print(f"seconds: load {t_load:.1f}, Riemann strengths {t_joint:.1f}, V_ind {t_run:.1f} "
          f"({', '.join(f'{k} {v:.1f}' for k, v in r.seconds.items() if k != 'riemann_strengths')}); "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    keeps = np.bincount(5 - np.unpackbits(r.keep.astype(np.uint8)[:, None], axis=1).sum(axis=1), minlength=6)
    print("best response's draw counts 0..5 (share of dealt hands):", np.round(keeps / gd.n_hands, 4).tolist())
    print(
        "best response's openings x, b1, b2, b4, b8:",
        np.round(np.bincount(r.opening, minlength=5) / gd.n_hands, 4).tolist(),
    )


if __name__ == "__main__":
    main()
