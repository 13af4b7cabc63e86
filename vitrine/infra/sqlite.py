"""Tortoise's SQLite engine, with transactions that take the write lock when they begin
(BEGIN IMMEDIATE) instead of at their first write.

The embedded default opens two connections to one WAL database (the main one and the call log's).
A deferred transaction that reads, then writes after the other connection committed, fails at once
with "database is locked" (SQLITE_BUSY_SNAPSHOT: the busy timeout does not apply). Taking the lock
up front makes such a transaction wait its turn under busy_timeout instead.
Used as the engine of sqlite:// URLs by vitrine/db.py."""

from __future__ import annotations

import sqlite3

from tortoise.backends.sqlite.client import SqliteClient, SqliteTransactionContext, SqliteTransactionWrapper
from tortoise.exceptions import TransactionManagementError


class _ImmediateTransaction(SqliteTransactionWrapper):
    async def begin(self) -> None:
        try:
            await self._connection.commit()
            await self._connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise TransactionManagementError(exc) from exc


class ImmediateSqliteClient(SqliteClient):
    def _in_transaction(self) -> SqliteTransactionContext:
        return SqliteTransactionContext(_ImmediateTransaction(self), self._lock)


client_class = ImmediateSqliteClient


def get_client_class(db_info: dict) -> type[SqliteClient]:
    return ImmediateSqliteClient
