"""Riemann at the game server: loading a table (target: under 0.5 s) and deciding (at least 100,000
decisions/s on seen hands), on the slim core's code path (no Numba, no SciPy).

Usage: python benchmarks/bench_riemann.py [--tables DIR --classes C.parquet --buckets B.parquet]
                                          [--variant standard] [--decisions 200000] [--iterations 20]

Without ``--tables`` the standard abstraction is built and solved for a few CFR+ iterations and
exported to a temporary folder as the export stage does (the speed of a decision or a load does
not depend on how well the table is solved).  Printed:

- ``load``: :meth:`Riemann.load` of the Parquet table with its receipt, class and bucket tables
  (every check included), in a process that has imported poker51 (median of 5);
- ``import + load``: the same as a whole process (``python -c``), interpreter start and imports
  included: what a server waits for at start-up;
- ``load (JSON)``: the compact JSON table instead;
- decisions per second: :meth:`Riemann.decide` on seeded random spots (every street, line, draw
  count); "seen hands" draws its hands from a pool of 5,000 (classification cached, as at a
  server with repeated hands), "fresh hands" a new hand each time (the plain-Python House rule
  and evaluator on first sight); ``act`` adds the public state rebuilt from an engine view.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from poker51.export.schema import completed_pre_lines, decision_lines, table_path
from poker51.play.actions import Action, ActionRecord, View
from poker51.policies.riemann import PublicState, Riemann
from poker51.rules import VARIANTS

LOAD_TARGET = 0.5
DECISIONS_TARGET = 100_000


def export_solved(variant: str, iterations: int, root: Path) -> tuple[Path, Path, Path, Path]:
    """(tables dir, receipt, classes, buckets) of a briefly solved table, exported like the stage."""
    from poker51.abstraction.tables import build_abstraction
    from poker51.export.receipt import write_receipt
    from poker51.export.tables import export_tables
    from poker51.games.abstract import build_game
    from poker51.io import write_parquet
    from poker51.solver.cfr import CFRPlusSolver

    tables = build_abstraction(variant, progress=False)
    ab = tables.arrays()
    game = build_game(ab)
    solver = CFRPlusSolver(game)
    solver.iterate(iterations)
    paths = export_tables(game, solver.average_policy(), ab, variant, root / "tables", {"iterations": iterations})
    write_parquet(tables.classes, root / "classes.parquet")
    write_parquet(tables.buckets, root / "buckets.parquet")
    write_receipt(root / "tables" / "receipt.json", paths, {}, {})
    return root / "tables", root / "tables" / "receipt.json", root / "classes.parquet", root / "buckets.parquet"


def spots(r: Riemann, rng: random.Random, n: int) -> list[PublicState]:
    out = []
    for _ in range(n):
        line = rng.choice(decision_lines())
        if rng.random() < 0.5:
            pre = rng.choice(completed_pre_lines())
            out.append(PublicState(1, rng.randrange(6), rng.choice(r.r_draws), pre, line, rng.random() < 0.9))
        else:
            out.append(PublicState(0, rng.randrange(6), -1, line, "", rng.random() < 0.9))
    return out


def hands(rng: random.Random, n: int, deck: list[int]) -> list[tuple[int, ...]]:
    return [tuple(rng.sample(deck, 5)) for _ in range(n)]


def rate(r: Riemann, cards: list, states: list) -> tuple[float, float]:
    """(decisions per wall-clock second, per CPU second of this process)."""
    t, c0 = time.perf_counter(), time.process_time()
    for c, s in zip(cards, states):
        r.decide(c, s)
    return len(cards) / (time.perf_counter() - t), len(cards) / (time.process_time() - c0)


def act_rate(r: Riemann, cards: list, n: int) -> tuple[float, float]:
    recs = (
        ActionRecord("pre", "H", "bet", 4, False),
        ActionRecord("pre", "R", "raise", 8, False),
        ActionRecord("pre", "H", "raise", 8, False),
    )
    legal = [Action("fold", 0), Action("call", 4)]
    views = [View("R", r.variant, "pre", c, None, None, 3, 80, 85, 9, 13, 5, 9, 22, 4, 4, recs) for c in cards[:n]]
    t, c0 = time.perf_counter(), time.process_time()
    for v in views:
        r.act(v, legal)
    return n / (time.perf_counter() - t), n / (time.process_time() - c0)


def load_seconds(table: Path, receipt: Path, classes: Path, buckets: Path, repeat: int = 5) -> tuple[float, float]:
    """Median (wall-clock, CPU) seconds of a load."""
    wall, cpu = [], []
    for _ in range(repeat):
        t, c0 = time.perf_counter(), time.process_time()
        Riemann.load(table, receipt=receipt, classes=classes, buckets=buckets)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)


def process_seconds(table: Path, receipt: Path, classes: Path, buckets: Path) -> tuple[float, float, str]:
    """Median wall and CPU (user + system) seconds of ``python -c 'import ...; Riemann.load(...)'``,
    and the heavy modules it imported."""
    code = (
        "import sys; from poker51.policies.riemann import Riemann; "
        f"Riemann.load({str(table)!r}, receipt={str(receipt)!r}, classes={str(classes)!r}, buckets={str(buckets)!r}); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'scipy', 'matplotlib', 'snakemake'}))"
    )
    wall, cpu, out = [], [], ""
    for _ in range(3):
        t, before = time.perf_counter(), os.times()
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
        after = os.times()
        wall.append(time.perf_counter() - t)
        cpu.append(after.children_user + after.children_system - before.children_user - before.children_system)
    return statistics.median(wall), statistics.median(cpu), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", help="a tables directory (results/tables); default: solve and export one")
    ap.add_argument("--classes")
    ap.add_argument("--buckets")
    ap.add_argument("--receipt")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--decisions", type=int, default=200_000)
    ap.add_argument("--iterations", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-riemann-") as tmp:
        if args.tables:
            tables = Path(args.tables)
            receipt = Path(args.receipt or tables.parent / "receipt.json")
            classes = Path(args.classes or tables.parent / args.variant / "classes.parquet")
            buckets = Path(args.buckets or tables.parent / args.variant / "buckets.parquet")
        else:
            tables, receipt, classes, buckets = export_solved(args.variant, args.iterations, Path(tmp))
        parquet, json_table = table_path(tables, args.variant), table_path(tables, args.variant, "json")
        load_seconds(parquet, receipt, classes, buckets, repeat=1)  # warm the file cache
        t_load = load_seconds(parquet, receipt, classes, buckets)
        t_json = load_seconds(json_table, receipt, classes, buckets, repeat=3)
        *t_proc, heavy = process_seconds(parquet, receipt, classes, buckets)
        mb = parquet.stat().st_size / 1e6, json_table.stat().st_size / 1e6
        print(f"table: {parquet} ({mb[0]:.1f} MB; JSON {mb[1]:.1f} MB); load average {os.getloadavg()[0]:.1f}")
        print(f"{'':34s}{'wall':>10s}{'CPU':>10s}")
        print(f"{'load (Parquet, checks, receipt)':34s}{t_load[0]:9.3f}s{t_load[1]:9.3f}s   target < {LOAD_TARGET} s")
        print(f"{'import + load, a whole process':34s}{t_proc[0]:9.3f}s{t_proc[1]:9.3f}s   heavy modules: {heavy}")
        print(f"{'load (compact JSON)':34s}{t_json[0]:9.3f}s{t_json[1]:9.3f}s")
        r = Riemann.load(parquet, receipt=receipt, classes=classes, buckets=buckets)
        rng = random.Random(51)
        n = args.decisions
        states = spots(r, rng, n)
        deck = list(VARIANTS[args.variant].cards)
        pool = hands(rng, 5000, deck)
        warm = [pool[rng.randrange(len(pool))] for _ in range(n)]
        rate(r, pool, states[:5000])  # classify the pool, build the spots' rows
        rate(r, pool, [PublicState(1, 2, r.r_draws[0], "x-x", "x")] * len(pool))
        cold = hands(random.Random(7), n, deck)
        print(f"{'decisions per second':34s}{'wall':>10s}{'CPU':>10s}")
        for label, (w, c) in (
            ("decide, seen hands", rate(r, warm, states)),
            ("decide, fresh hands", rate(r, cold, states)),
            ("act (engine view), seen hands", act_rate(r, warm, min(n, 100_000))),
        ):
            target = f"   target >= {DECISIONS_TARGET:,}" if "seen" in label and "act" not in label else ""
            print(f"{label:34s}{w:10,.0f}{c:10,.0f}{target}")


if __name__ == "__main__":
    main()
