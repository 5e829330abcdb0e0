"""What the benchmark scripts share (they run as ``python benchmarks/bench_*.py``, so this folder
is on their import path)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """The shortest wall-clock time of ``repeat`` calls of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best
