"""Per-minute request limits over clock-aligned one-minute windows, counted in the `limits`
library's storage (in memory, or Redis shared by every process)."""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass

from limits.aio.storage import Storage
from limits.storage import storage_from_string

WINDOW_SECONDS = 60


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset: int  # unix seconds when the window restarts
    retry_after: int  # seconds; meaningful when not allowed


class RateLimiter:
    def __init__(self, redis_url: str | None) -> None:
        if redis_url:
            uri = "async+" + redis_url
            self.storage: Storage = storage_from_string(uri, implementation="redispy")
        else:
            self.storage = storage_from_string("async+memory://")

    async def hit(self, buckets: list[tuple[str, int]], now: float | None = None) -> Decision:
        """Count one request in every (bucket, limit); allowed when none is over its limit.
        The headers describe the bucket closest to exhaustion."""
        now = time.time() if now is None else now
        window = int(now // WINDOW_SECONDS)
        reset = (window + 1) * WINDOW_SECONDS
        counts = await asyncio.gather(
            *(self.storage.incr(f"rl:{name}:{window}", WINDOW_SECONDS + 1) for name, _ in buckets)
        )
        remaining = [(limit - count, limit) for (_, limit), count in zip(buckets, counts)]
        left, limit = min(remaining)
        return Decision(
            allowed=left >= 0,
            limit=limit,
            remaining=max(0, left),
            reset=reset,
            retry_after=max(1, math.ceil(reset - now)),
        )
