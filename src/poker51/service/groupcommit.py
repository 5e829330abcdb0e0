"""Group commit: the rooms' commits written by one thread, many per transaction.

Each accepted command of a room is one transaction (:meth:`Store.commit`); with many rooms
busy at once, one transaction each means one write to disk each, and on SQLite a queue of
threads waiting on the one write lock (its busy handler sleeps in steps of up to 100 ms, which
is where the load test's 4-second p99 came from).  :class:`GroupCommitter` hands every commit to
one writer thread instead: it takes whatever commits are waiting (up to :data:`BATCH`), writes
them in one transaction (:meth:`Store.commit_many`) and answers each.  Nothing waits on a timer:
an idle service writes each commit at once; a busy one writes many per disk write.

What it keeps: a command is acknowledged and broadcast only after its own transaction is
committed (a crash loses no acknowledged command); a failed job (a bank refusal, a replayed id)
fails alone, since the batch is rolled back and each of its jobs run again in its own
transaction; a room's commits never share a batch, because the host holds the room's lock
until its commit returns.  The thread ends after :data:`IDLE_SECONDS` without work and starts
again with the next commit.

Each commit waits on a future of its own event loop; the writer resolves a whole batch's futures
with one ``call_soon_threadsafe`` per loop (one wake-up of the loop per transaction, not one per
commit: a wake-up is a write to the loop's self-pipe and a turn of the loop).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection

from poker51.service.store import Committed, Store

#: the most commits one transaction writes
BATCH = 64
#: seconds without work after which the writer thread ends
IDLE_SECONDS = 2.0

Job = Callable[[Connection], Committed]


class GroupCommitter:
    """One writer thread for one :class:`Store` (module docstring)."""

    def __init__(self, store: Store, batch: int = BATCH) -> None:
        self.store = store
        self.batch = int(batch)
        self._queue: queue.Queue[tuple[Job, asyncio.AbstractEventLoop, asyncio.Future[Committed]]] = queue.Queue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        #: (transactions, commits) written so far: commits per transaction is the batching gained
        self.written = [0, 0]

    async def commit(self, job: Job) -> Committed:
        """Run ``job`` (``lambda conn: store.commit_on(conn, ...)``) in the next transaction; its
        :class:`Committed` once that transaction is on disk, or the exception it raised."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Committed] = loop.create_future()
        with self._lock:
            self._queue.put((job, loop, waiter))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="poker51-commit", daemon=True)
                self._thread.start()
        # like anyio.to_thread.run_sync: a cancellation waits for the commit (the room in memory
        # already holds the command, so the job always runs), then is raised
        cancelled = False
        while True:
            try:
                result = await asyncio.shield(waiter)
                break
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    result = waiter.result()
                    break
                cancelled = True
        if cancelled:
            raise asyncio.CancelledError
        return result

    def _run(self) -> None:
        while True:
            try:
                first = self._queue.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    if self._queue.empty():
                        self._thread = None
                        return
                continue
            work = [first]
            while len(work) < self.batch:
                try:
                    work.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                results: list[Any] = self.store.commit_many([job for job, _, _ in work])
            except BaseException as exc:  # the store itself failed: every job of the batch gets it
                results = [exc] * len(work)
            self.written[0] += 1
            self.written[1] += len(work)
            by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Committed], Any]]] = {}
            for (_, loop, fut), res in zip(work, results, strict=True):
                by_loop.setdefault(loop, []).append((fut, res))
            for loop, done in by_loop.items():
                try:
                    loop.call_soon_threadsafe(_resolve, done)
                except RuntimeError:  # pragma: no cover - that loop is closed: nobody waits
                    pass


def _resolve(done: list[tuple[asyncio.Future[Committed], Any]]) -> None:
    """On the waiters' loop: each future gets its commit's result or exception."""
    for fut, res in done:
        if fut.cancelled():  # pragma: no cover - the waiter shields it; kept for safety
            continue
        if isinstance(res, BaseException):
            fut.set_exception(res)
        else:
            fut.set_result(res)


__all__ = ["BATCH", "IDLE_SECONDS", "GroupCommitter", "Job"]
