"""Tortoise's SQLite engine, with transactions that take the write lock when they begin
(BEGIN IMMEDIATE) instead of at their first write, and that cannot leave the connection locked.

The embedded default opens two connections to one WAL database (the main one and the call log's).
A deferred transaction that reads, then writes after the other connection committed, fails at once
with "database is locked" (SQLITE_BUSY_SNAPSHOT: the busy timeout does not apply). Taking the lock
up front makes such a transaction wait its turn under busy_timeout instead.

Tortoise's transaction takes the connection's asyncio lock and then sends BEGIN; a task cancelled
in between (BEGIN IMMEDIATE waiting under busy_timeout while the app shuts down, say) raised out of
`__aenter__`, so no `__aexit__` released the lock, and every later query of the process waited for
good. Here a failed start rolls back and releases.

A connection that does background work (the call log's batches) can run its thread at a lower
scheduling priority (`thread_niceness`): on two cores its INSERTs otherwise took the CPU from the
requests' loop and read thread, and every request in flight waited (vitrine/db.py says why).
Used as the engine of sqlite:// URLs by vitrine/db.py."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from typing import Any

from tortoise.backends.sqlite.client import SqliteClient, SqliteTransactionContext, SqliteTransactionWrapper
from tortoise.connection import get_connections
from tortoise.exceptions import TransactionManagementError

from vitrine.infra.cpu import lower_thread_priority


class _ImmediateTransaction(SqliteTransactionWrapper):
    async def begin(self) -> None:
        try:
            await self._connection.commit()
            await self._connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise TransactionManagementError(exc) from exc


class _TransactionContext(SqliteTransactionContext):
    async def __aenter__(self) -> _ImmediateTransaction:
        await self._trxlock.acquire()
        token = None
        try:
            await self.ensure_connection()
            token = self.token = get_connections().set(self.connection_name, self.connection)
            await self.connection.begin()
        except BaseException:
            try:
                # Queued after BEGIN in the connection's thread, so it undoes it even if BEGIN runs
                # after this task was cancelled; shielded, since this task may be cancelled again.
                await asyncio.shield(self.connection._connection.rollback())
            except BaseException:
                pass
            finally:
                if token is not None:
                    get_connections().reset(token)
                self._trxlock.release()
            raise
        return self.connection


log = logging.getLogger(__name__)


class ImmediateSqliteClient(SqliteClient):
    def __init__(self, file_path: str, *, thread_niceness: int = 0, **kwargs: Any) -> None:
        super().__init__(file_path, **kwargs)  # every other key is a PRAGMA for SqliteClient
        self.thread_niceness = thread_niceness

    async def create_connection(self, with_db: bool) -> None:
        fresh = self._connection is None
        await super().create_connection(with_db)
        if fresh and self.thread_niceness and self._connection is not None:
            # aiosqlite runs each connection's statements in a thread of its own (`_thread`).
            thread = getattr(self._connection, "_thread", None)
            if (
                thread is None
                or thread.native_id is None
                or not lower_thread_priority(thread.native_id, self.thread_niceness)
            ):
                log.info("connection %s keeps its thread's priority", self.connection_name)

    def _in_transaction(self) -> SqliteTransactionContext:
        return _TransactionContext(_ImmediateTransaction(self), self._lock)


client_class = ImmediateSqliteClient


def get_client_class(db_info: dict) -> type[SqliteClient]:
    return ImmediateSqliteClient
