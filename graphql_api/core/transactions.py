"""Transactions on the main connection (the call log has a connection of its own), and work
that must wait for the commit: a task kicked for a row must never run before the row exists."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar

from tortoise.transactions import in_transaction

MAIN_CONNECTION = "default"

_after_commit: ContextVar[list[Callable[[], Awaitable[None]]] | None] = ContextVar("after_commit", default=None)


@asynccontextmanager
async def transaction() -> AsyncIterator[None]:
    """`async with transaction():` – one atomic unit of work. Nested uses join the outer one;
    callbacks registered with `after_commit` run once the outermost one commits."""
    if _after_commit.get() is not None:
        async with in_transaction(MAIN_CONNECTION):
            yield
        return
    token = _after_commit.set([])
    try:
        async with in_transaction(MAIN_CONNECTION):
            yield
        callbacks = _after_commit.get() or []
    finally:
        _after_commit.reset(token)
    for callback in callbacks:
        await callback()


async def after_commit(callback: Callable[[], Awaitable[None]]) -> None:
    """Run `callback` after the current transaction commits (at once when there is none)."""
    pending = _after_commit.get()
    if pending is None:
        await callback()
    else:
        pending.append(callback)
