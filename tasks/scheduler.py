"""Periodic jobs: each is enqueued once per period across all processes (a Redis lock when
several processes run; the single process otherwise)."""

from __future__ import annotations

import asyncio
import logging
import time

from redis.asyncio import Redis

log = logging.getLogger(__name__)

PERIOD_SECONDS = 3600


class Loop:
    """Calls `run_once` every `period` seconds in this process until stopped; failures are logged."""

    name = "loop"

    def __init__(self, period: float) -> None:
        self.period = period
        self._task: asyncio.Task | None = None

    async def run_once(self) -> None:
        raise NotImplementedError

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("%s failed", self.name)
            await asyncio.sleep(self.period)

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass


class PeriodicJobs(Loop):
    name = "periodic-jobs"

    def __init__(self, tasks, redis: Redis | None, period: float = PERIOD_SECONDS) -> None:
        super().__init__(period)
        self.tasks = tasks
        self.redis = redis

    async def _claim(self, name: str, slot: int) -> bool:
        if self.redis is None:
            return True
        return bool(await self.redis.set(f"vitrine:agenda:{name}:{slot}", "1", nx=True, ex=int(self.period) + 60))

    async def run_once(self) -> None:
        slot = int(time.time() // self.period)
        for task in self.tasks:
            if await self._claim(task.task_name, slot):
                await task.kiq()
