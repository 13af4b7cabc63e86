"""Periodic jobs: each is enqueued once per period across all processes (a Redis lock when
several processes run; the single process otherwise). A job is a task (run every `period`
seconds) or a (task, seconds) pair; every job also runs once at start-up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

PERIOD_SECONDS = 3600
# The label of a periodic run's message: when its slot began (Unix time). It also tells the task's
# middleware that the run is a periodic one (tasks/middleware.py).
DUE_LABEL = "devido_em"


class Loop:
    """Calls `run_once` every `period` seconds in this process until stopped; failures are logged."""

    name = "loop"

    def __init__(self, period: float) -> None:
        self.period = period
        self._task: asyncio.Task | None = None
        self.last_round = time.monotonic()  # when a round last began (the readiness check reads it)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def run_once(self) -> None:
        raise NotImplementedError

    async def _loop(self) -> None:
        while True:
            self.last_round = time.monotonic()
            try:
                await self.run_once()
            except (OSError, RedisError) as exc:  # Redis or the database away: a known state, one line
                log.error("%s failed: %s", self.name, exc)
            except Exception:
                log.exception("%s failed", self.name)
            # Rounds fall just after the slots' boundaries (multiples of the period), so a job
            # starts at its due moment rather than up to a period later, and its lag says so.
            await asyncio.sleep(self.period - time.time() % self.period)

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class PeriodicJobs(Loop):
    name = "periodic-jobs"

    def __init__(self, tasks, redis: Redis | None, period: float = PERIOD_SECONDS, *, key_prefix: str) -> None:
        self.jobs = [job if isinstance(job, tuple) else (job, period) for job in tasks]
        super().__init__(min((every for _, every in self.jobs), default=period))
        self.redis = redis
        # Inside the deployment's Redis namespace: deployments sharing one Redis keep their own slots.
        self.key_prefix = key_prefix
        self._last_slot: dict[str, int] = {}
        self._started = time.time()

    async def _claim(self, name: str, slot: int, every: float) -> bool:
        if self.redis is None:
            return True
        key = f"{self.key_prefix}:{name}:{slot}"
        return bool(await self.redis.set(key, "1", nx=True, ex=int(every) + 60))

    async def run_once(self) -> None:
        now = time.time()
        for task, every in self.jobs:
            slot = int(now // every)
            if self._last_slot.get(task.task_name) == slot:
                continue
            self._last_slot[task.task_name] = slot
            if await self._claim(task.task_name, slot, every):
                # Its due moment travels with the message: the run measures how late it started. The
                # start-up round is due at the start, not when its slot began.
                due = max(slot * every, self._started)
                await task.kicker().with_labels(**{DUE_LABEL: repr(due)}).kiq()
