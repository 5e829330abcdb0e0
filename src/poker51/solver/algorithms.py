"""The regret minimisers by name, and the default, without importing the kernels (the command
line reads them to build its help)."""

from __future__ import annotations

#: the algorithms of :data:`poker51.solver.cfr.SOLVERS`, as the command line and config name them
ALGORITHMS = ("cfr+", "dcfr", "pcfr+")
#: the fastest to 1 mjbit/hand on the three Poker 51 variants (``results/figures/solver_comparison``,
#: ``results/solver_comparison.parquet``); config/config.yaml ``solve.algorithm`` names it too
DEFAULT_ALGORITHM = "dcfr"
