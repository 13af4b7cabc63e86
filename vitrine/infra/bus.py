"""Cache invalidation across processes: a topic published here reaches every process's
handlers (through Redis pub/sub when configured; in-process otherwise)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from redis.asyncio import Redis

log = logging.getLogger(__name__)


class InvalidationBus:
    def __init__(self, redis: Redis | None, channel: str) -> None:
        self._redis = redis
        self._channel = channel  # inside the deployment's Redis namespace
        self._handlers: list[Callable[[str], None]] = []
        self._task: asyncio.Task | None = None

    def subscribe(self, handler: Callable[[str], None]) -> None:
        self._handlers.append(handler)

    def _dispatch(self, topic: str) -> None:
        for handler in self._handlers:
            handler(topic)

    async def publish(self, topic: str) -> None:
        self._dispatch(topic)  # this process at once, before the caller's next request
        if self._redis is not None:
            await self._redis.publish(self._channel, topic)

    async def start(self) -> None:
        if self._redis is None:
            return
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self._channel)
        self._task = asyncio.create_task(self._listen(pubsub), name="invalidation-bus")

    async def _listen(self, pubsub) -> None:
        try:
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    data = message["data"]
                    self._dispatch(data.decode() if isinstance(data, bytes) else data)
        finally:
            await pubsub.aclose()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
