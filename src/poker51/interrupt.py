"""Ctrl-C between bounded chunks of work (issue 29).

A Numba kernel does not return to Python until it is done, so a SIGINT that arrives during
one long call waits for its end: a solve of 10^8 iterations in one call ignored Ctrl-C for
minutes.  Long loops therefore run in chunks of bounded wall-clock time (:func:`chunks`) and,
inside :func:`interruptible`, check between chunks (:func:`check`) a flag that a SIGINT
handler sets: the first Ctrl-C stops the loop at the end of the running chunk with
:class:`KeyboardInterrupt` (the command line's exit 130), a second one at once.

Outside :func:`interruptible` (and off the main thread, where Python allows no signal
handler) nothing changes: Python's own handler raises :class:`KeyboardInterrupt` at once.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

_requested = threading.Event()


def _handler(signum: int, frame: object) -> None:
    if _requested.is_set():  # the second Ctrl-C: do not wait for the chunk
        raise KeyboardInterrupt
    _requested.set()


@contextmanager
def interruptible() -> Iterator[None]:
    """Within: a SIGINT sets the flag that :func:`check` reads (module docstring)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _handler)
    _requested.clear()
    try:
        yield
        check()  # a Ctrl-C during the last chunk
    finally:
        signal.signal(signal.SIGINT, previous)
        _requested.clear()


def check() -> None:
    """Raise :class:`KeyboardInterrupt` when a SIGINT arrived inside :func:`interruptible`."""
    if _requested.is_set():
        raise KeyboardInterrupt


def chunks(total: int, seconds: float = 0.25, first: int = 1) -> Iterator[int]:
    """Sizes that add up to ``total``, each chunk of about ``seconds`` of wall clock at most
    (after the first, of ``first`` items): the size doubles while a chunk takes less than half
    of ``seconds`` and halves when one takes more.  :func:`check` runs before each chunk.
    Only for work whose result does not depend on how it is chunked (the solvers' iterations:
    :meth:`poker51.solver.cfr.CFRSolver.iterate`).

    >>> sum(chunks(1000)), next(chunks(1000))
    (1000, 1)
    """
    left, size = int(total), max(1, int(first))
    while left > 0:
        check()
        n = min(size, left)
        start = time.perf_counter()
        yield n
        took = time.perf_counter() - start
        left -= n
        if took < seconds / 2:
            size *= 2
        elif took > seconds and size > 1:
            size //= 2
