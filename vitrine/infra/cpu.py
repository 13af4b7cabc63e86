"""CPU-bound work (media rendering, photo analysis) in worker processes of the process that asks.

Threads would share the web process's interpreter lock and the default executor with everything
else: videos rendering in threads stalled portal sign-ins (docs/decisoes/0004-trabalho-de-cpu.md).
Here each job runs in a pebble process pool: created on first use, workers started by a forkserver
(never fork: the parent has threads and an event loop) with the named modules preloaded, and
lowered in CPU priority so the web process gets a core whenever it needs one. A job whose caller is cancelled stops its worker at
once; a worker that dies fails only its own job (WorkerCrashed) and is replaced, and a pool that
broke as a whole is rebuilt on the next job.

Jobs are module-level functions; their arguments, results and exceptions cross a pipe pickled."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import pebble

T = TypeVar("T")

# How much lower than the web process's requests background work runs (nice value, 0-19): the
# render workers here, and on SQLite the call log's connection thread (vitrine/db.py).
BACKGROUND_NICENESS = 10


class WorkerCrashed(RuntimeError):
    """The process running a job died (killed, out of memory, a crash in native code)."""


def available_cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def render_workers() -> int:
    """One core stays with the web process and the database."""
    return max(1, available_cpus() - 1)


def _lower_priority(niceness: int) -> None:
    os.nice(niceness)


def lower_thread_priority(native_id: int, niceness: int) -> bool:
    """Add `niceness` to one thread's nice value. Linux keeps a nice value per thread (elsewhere
    setpriority would change the whole process, so nothing is done there). Raising one's own nice
    value needs no privilege."""
    if sys.platform != "linux" or niceness <= 0:
        return False
    current = os.getpriority(os.PRIO_PROCESS, native_id)
    os.setpriority(os.PRIO_PROCESS, native_id, min(current + niceness, 19))
    return True


class ProcessPool:
    def __init__(
        self, name: str, workers: int, *, preload: tuple[str, ...] = (), niceness: int = BACKGROUND_NICENESS
    ) -> None:
        self.name = name
        self.workers = workers
        self.preload = preload
        self.niceness = niceness
        self._pool: pebble.ProcessPool | None = None
        self._jobs: set[Future] = set()

    @property
    def busy(self) -> int:
        """Processes at work now (the service's metrics read it)."""
        return min(len(self._jobs), self.workers)

    @property
    def waiting(self) -> int:
        """Jobs waiting for a free process."""
        return max(0, len(self._jobs) - self.workers)

    def _running_pool(self) -> pebble.ProcessPool:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            # Takes effect when this process starts its forkserver, once: workers then fork ready.
            context.set_forkserver_preload(list(self.preload))
            self._pool = pebble.ProcessPool(
                self.workers, initializer=_lower_priority, initargs=(self.niceness,), context=context
            )
        return self._pool

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        if self._pool is not None and not self._pool.active:
            await self.stop()  # broke as a whole (a worker could not start, an unreadable result)
        job = self._running_pool().schedule(function, args)
        self._jobs.add(job)
        job.add_done_callback(self._jobs.discard)
        try:
            # Cancelling the awaiting task cancels the job; pebble then ends its worker.
            return await asyncio.wrap_future(job)
        except (pebble.ProcessExpired, BrokenProcessPool) as exc:
            raise WorkerCrashed(f"{self.name} worker process died: {exc}") from exc

    async def stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for job in list(self._jobs):
            job.cancel()
        pool.stop()
        await asyncio.to_thread(pool.join)
