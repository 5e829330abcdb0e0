"""Benchmark of the machine itself, so that the other benchmarks' figures can be compared
across days and machines.

    .venv/bin/python benchmarks/bench_machine.py [--repeat 3]

The development machine is a shared 2-core VM whose solver figures moved 3x between days
(2026-12-01 and 12-02): the solver's passes wait on memory, and on 12-02 a load from an 8 MB
array took as long as one from memory, the host's shared L3 cache being taken by other
guests.  So this prints one figure per kind of work (best of ``--repeat``):

1. Python: 20 million integer additions in a ``for`` loop (the play engine, the scripts);
2. dependent loads: a random cycle through an array of 64-bit indices, each load waiting
   for the one before, in ns per load, at 128 kB (L2), 8 MB (the L3, when it is free) and
   128 MB (memory): the solver's indirect reads behave like the 8 MB figure;
3. streaming: copying 400 MB with NumPy, in GB/s (read + write);

with the date, the CPU, its caches as ``lscpu`` reports them and the load average.  A
benchmark figure of the solver is comparable across two days when the 8 MB figure is.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess

import numpy as np
from _timing import best_of
from numba import njit

#: array sizes of the dependent-load test, in 64-bit entries: 128 kB, 8 MB, 128 MB
CHASE_SIZES = (1 << 14, 1 << 20, 1 << 24)
CHASE_LOADS = 2_000_000


@njit(cache=True)
def _chase(nxt: np.ndarray, n: int) -> int:
    i = 0
    for _ in range(n):
        i = nxt[i]
    return i


def cycle(size: int, seed: int = 51) -> np.ndarray:
    """One random cycle through all ``size`` slots: ``nxt[i]`` is the slot after ``i``."""
    order = np.random.default_rng(seed).permutation(size).astype(np.int64)
    nxt = np.empty(size, np.int64)
    nxt[order] = np.roll(order, -1)
    return nxt


def python_loop() -> None:
    s = 0
    for i in range(20_000_000):
        s += i


def caches() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "lscpu unavailable"
    rows = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    keys = ("Model name", "L2 cache", "L3 cache")
    return ", ".join(f"{k} {rows[k].strip()}" for k in keys if k in rows)


def machine_line() -> str:
    """The one-line machine figure other benchmarks print beside theirs: the date, the CPUs, Numba's
    threads, the time of a dependent load at 8 MiB (the figure that decides the solver's and the
    play kernels' speed on this VM) and the load average."""
    import numba

    nxt = cycle(1 << 20)
    _chase(nxt, 10)
    _chase(nxt, 1 << 20)  # touch every page once
    seconds = best_of(lambda: _chase(nxt, CHASE_LOADS), 2)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"machine: {now}, {os.cpu_count()} CPUs, numba threads {numba.get_num_threads()}, "
        f"8 MiB dependent loads {seconds / CHASE_LOADS * 1e9:.1f} ns, load average {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error(f"--repeat must be at least 1, got {args.repeat}")
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"machine              {now}, {os.cpu_count()} cores, {platform.machine()}; {caches()}")
    print(f"python loop          {best_of(python_loop, args.repeat):.2f} s for 20 million additions")
    _chase(cycle(16), 1)  # the compiled kernel (cached after the first run), before the clock
    for size in CHASE_SIZES:
        nxt = cycle(size)
        _chase(nxt, size)  # touch every page once
        seconds = best_of(lambda nxt=nxt: _chase(nxt, CHASE_LOADS), args.repeat)
        print(f"dependent loads      {seconds / CHASE_LOADS * 1e9:6.1f} ns per load at {size * 8 / 2**20:g} MiB")
    a = np.ones(50_000_000)
    b = np.empty_like(a)
    np.copyto(b, a)  # fault the pages in first
    seconds = best_of(lambda: np.copyto(b, a), args.repeat)
    print(f"streaming copy       {2 * a.nbytes / seconds / 1e9:6.1f} GB/s (read + write, 400 MB)")
    print(f"load average         {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
