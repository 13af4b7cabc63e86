"""Index shapes the ORM has no word for."""

from __future__ import annotations

from typing import Any

from tortoise.indexes import Index


class IndiceDosPreenchidos(Index):
    """An index of the rows whose `coluna` is filled (`WHERE coluna IS NOT NULL`).

    For a column that is NULL on most rows (the call's error code, account, key or app): an
    equality filter on it never wants the NULLs, the index is smaller and cheaper to write, and
    SQLite's statistics (`sqlite_stat1` keeps only the average rows per value) are no longer
    inflated by one huge NULL group that made the planner take a common filter's index instead."""

    def __init__(self, *, fields: tuple[str, ...] | list[str], coluna: str, name: str | None = None) -> None:
        super().__init__(fields=fields, name=name)
        self.coluna = coluna
        self.extra = f' WHERE "{coluna}" IS NOT NULL'

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        path, args, kwargs = super().deconstruct()
        kwargs["coluna"] = self.coluna
        return path, args, kwargs
