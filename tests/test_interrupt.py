"""Ctrl-C between chunks (poker51.interrupt): a SIGINT inside ``interruptible`` stops the loop
before its next chunk, with KeyboardInterrupt; outside, Python's handler is back."""

from __future__ import annotations

import os
import signal

import pytest

from poker51 import interrupt


def test_a_sigint_stops_the_loop_at_the_next_chunk():
    done = []
    before = signal.getsignal(signal.SIGINT)  # Python's handler; SIG_IGN when started in the background
    with pytest.raises(KeyboardInterrupt), interrupt.interruptible():
        for n in interrupt.chunks(100, first=10):
            done.append(n)
            if len(done) == 2:
                os.kill(os.getpid(), signal.SIGINT)  # the handler only sets the flag
    assert done == [10, 20]
    assert signal.getsignal(signal.SIGINT) is before


def test_a_sigint_in_the_last_chunk_is_not_lost():
    with pytest.raises(KeyboardInterrupt), interrupt.interruptible():
        for _ in interrupt.chunks(1):
            os.kill(os.getpid(), signal.SIGINT)


def test_chunks_add_up_and_grow_when_fast():
    sizes = list(interrupt.chunks(1000))
    assert sum(sizes) == 1000 and sizes[:4] == [1, 2, 4, 8]
