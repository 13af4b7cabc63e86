"""What authenticating a credential needs, kept in each process (API keys, OAuth access tokens),
and small sets every request reads (SnapshotCache: the origins allowed by CORS):
an entry lives `ttl` seconds at most, and a revocation clears every process at once through the
invalidation bus.

A clear must also win over a lookup that was reading the database while it happened: that
lookup read the row before the revocation and would put it back after the clear, undoing the
revocation for up to `ttl` seconds. So each clear starts a new epoch, and an entry read in an
earlier epoch is returned to its caller but never stored."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class CredentialCache(Generic[T]):
    def __init__(self, ttl_seconds: float = 60.0, max_entries: int = 100_000) -> None:
        self.ttl = ttl_seconds
        self.max_entries = max_entries
        self._entries: dict[str, tuple[float, T]] = {}
        self._epoch = 0

    @property
    def epoch(self) -> int:
        """Read it before loading an entry from the database; give it back to `put`."""
        return self._epoch

    def get(self, key: str) -> T | None:
        found = self._entries.get(key)
        if found is None or time.monotonic() - found[0] > self.ttl:
            return None
        return found[1]

    async def get_or_load(self, key: str, load: Callable[[str], Awaitable[T | None]]) -> T | None:
        """The entry of `key`; when missing, `load(key)` reads it (None: no such credential), and
        it is kept unless a clear overtook the read."""
        entry = self.get(key)
        if entry is not None:
            return entry
        epoch = self._epoch
        entry = await load(key)
        if entry is not None:
            self.put(key, entry, epoch)
        return entry

    def put(self, key: str, entry: T, epoch: int) -> None:
        if epoch != self._epoch:  # cleared while it was being read: it may be what was revoked
            return
        if len(self._entries) >= self.max_entries:
            self._entries.clear()
        self._entries[key] = (time.monotonic(), entry)

    def clear(self, _topic: str = "") -> None:
        self._entries.clear()
        self._epoch += 1


class SnapshotCache(Generic[T]):
    """One value every request reads (a small set, loaded whole by `load`), kept in each process
    for `ttl` seconds at most and cleared in every process through the invalidation bus, with the
    same epoch rule as CredentialCache: a load that a clear overtook is returned, never kept.
    Requests that find it empty at once share one load."""

    def __init__(self, load: Callable[[], Awaitable[T]], ttl_seconds: float = 60.0) -> None:
        self.ttl = ttl_seconds
        self._load = load
        self._value: tuple[float, T] | None = None
        self._epoch = 0
        self._loading: asyncio.Lock | None = None

    async def get(self) -> T:
        found = self._fresh()
        if found is not None:
            return found[1]
        if self._loading is None:
            self._loading = asyncio.Lock()
        async with self._loading:
            found = self._fresh()  # loaded by the request this one waited for
            if found is not None:
                return found[1]
            epoch = self._epoch
            value = await self._load()
            if epoch == self._epoch:
                self._value = (time.monotonic(), value)
            return value

    def _fresh(self) -> tuple[float, T] | None:
        value = self._value
        if value is None or time.monotonic() - value[0] > self.ttl:
            return None
        return value

    def clear(self, _topic: str = "") -> None:
        self._value = None
        self._epoch += 1
