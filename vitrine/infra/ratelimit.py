"""Per-minute request limits over clock-aligned one-minute windows.

Counting happens in the process on every request (a dict increment). With Redis, each process
also adds its new hits to shared Redis counters every SYNC_SECONDS and learns the total of all
processes; a request is judged against that total plus this process's hits since. Across several
processes a limit can thus be overshot by at most SYNC_SECONDS of the others' traffic; within one
process it is exact.

Not the `limits` library: its in-memory async storage starts a task on every hit and its Redis
storage is a round trip per counter, too much for the facade's hot path
(docs/decisoes/0002-limites-por-minuto.md)."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)

WINDOW_SECONDS = 60
SYNC_SECONDS = 0.1


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset: int  # unix seconds when the window restarts
    retry_after: int  # seconds; meaningful when not allowed


class RateLimiter:
    def __init__(self, redis: Redis | None, key_prefix: str, clock: Callable[[], float] = time.time) -> None:
        self._redis = redis
        self._clock = clock  # unix seconds; the composition root passes the domain's clock
        self._key_prefix = key_prefix  # inside the deployment's Redis namespace
        self._window = -1
        self._local: dict[str, int] = {}  # this process's hits in the window
        self._unsynced: dict[str, int] = {}  # of those, not yet added to Redis
        self._others: dict[str, int] = {}  # other processes' hits, as of the last sync
        self._sync_task: asyncio.Task | None = None

    def _roll(self, window: int) -> None:
        if window != self._window:
            self._window = window
            self._local, self._unsynced, self._others = {}, {}, {}

    async def hit(self, buckets: list[tuple[str, int]], now: float | None = None) -> Decision:
        """Count one request in every (bucket, limit); allowed when none is over its limit.
        The headers describe the bucket closest to exhaustion."""
        now = self._clock() if now is None else now
        window = int(now // WINDOW_SECONDS)
        self._roll(window)
        tightest: tuple[int, int] | None = None
        for name, limit in buckets:
            local = self._local.get(name, 0) + 1
            self._local[name] = local
            left = limit - local - self._others.get(name, 0)
            if tightest is None or left < tightest[0]:
                tightest = (left, limit)
            if self._redis is not None:
                self._unsynced[name] = self._unsynced.get(name, 0) + 1
        if self._redis is not None and (self._sync_task is None or self._sync_task.done()):
            self._sync_task = asyncio.create_task(self._sync_later())
        assert tightest is not None, "hit() takes at least one bucket"
        left, limit = tightest
        reset = (window + 1) * WINDOW_SECONDS
        return Decision(
            allowed=left >= 0,
            limit=limit,
            remaining=max(0, left),
            reset=reset,
            retry_after=max(1, math.ceil(reset - now)),
        )

    async def _sync_later(self) -> None:
        await asyncio.sleep(SYNC_SECONDS)
        try:
            await self.sync()
        except Exception as exc:  # Redis away: keep counting locally, try again on the next hit
            log.warning("rate-limit sync with Redis failed, counting locally: %s", exc, exc_info=not _unreachable(exc))

    async def sync(self) -> None:
        """Add this process's new hits to Redis and learn the other processes' totals."""
        if self._redis is None or not self._unsynced:
            return
        window, batch = self._window, self._unsynced
        self._unsynced = {}
        async with self._redis.pipeline(transaction=False) as pipe:
            for name, delta in batch.items():
                key = f"{self._key_prefix}:{name}:{window}"
                pipe.incrby(key, delta)
                pipe.expire(key, WINDOW_SECONDS + 5)
            results = await pipe.execute()
        if window != self._window:
            return
        for (name, _), total in zip(batch.items(), results[::2], strict=False):
            unsynced_since = self._unsynced.get(name, 0)
            self._others[name] = max(0, total - (self._local.get(name, 0) - unsynced_since))

    async def close(self) -> None:
        if self._sync_task is not None:
            self._sync_task.cancel()


def _unreachable(exc: Exception) -> bool:
    """Redis refused or dropped the connection: a known state, logged without its traceback."""
    return isinstance(exc, OSError | RedisConnectionError)
