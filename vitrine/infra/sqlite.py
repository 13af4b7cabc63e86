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
Used as the engine of sqlite:// URLs by vitrine/db.py."""

from __future__ import annotations

import asyncio
import sqlite3

from tortoise.backends.sqlite.client import SqliteClient, SqliteTransactionContext, SqliteTransactionWrapper
from tortoise.connection import get_connections
from tortoise.exceptions import TransactionManagementError


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


class ImmediateSqliteClient(SqliteClient):
    def _in_transaction(self) -> SqliteTransactionContext:
        return _TransactionContext(_ImmediateTransaction(self), self._lock)


client_class = ImmediateSqliteClient


def get_client_class(db_info: dict) -> type[SqliteClient]:
    return ImmediateSqliteClient
