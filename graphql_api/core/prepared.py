"""Reads by primary key whose SQL is built once per kind of database.

On the API's busiest route (GET /geracoes/{id}) building the Tortoise query for every request
(filters resolved, pypika rendering) cost more CPU than sending it to SQLite. Tortoise still runs
the statement and turns the row into the model, so fields and conversions stay Tortoise's own.
It leans on Tortoise's private `_choose_db` and `_make_query` (pinned ~=1.1):
tests/unit/test_prepared_read.py compares every field with Tortoise's own read and fails first.
With VITRINE_GRAPHQL_SHORTCUTS=off (graphql_api/core/shortcuts.py) it is Tortoise's own read.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from tortoise.models import Model

from graphql_api.core import shortcuts

M = TypeVar("M", bound=Model)

# Stands for the primary key while the statement is rendered, then is swapped for the real one.
_PK_MARK = "\x00vitrine-pk\x00"


class ReadByPk(Generic[M]):
    """`await ReadByPk(Model).get_or_none(pk)` reads like `Model.get_or_none(pk=pk)`."""

    def __init__(self, model: type[M]) -> None:
        self._model = model
        # One statement per client class: SQLite and PostgreSQL render placeholders differently.
        self._statements: dict[type, tuple[str, list[Any]]] = {}

    def _statement(self, db: Any) -> tuple[str, list[Any]]:
        statement = self._statements.get(type(db))
        if statement is None:
            query = self._model.filter(pk=_PK_MARK).using_db(db).limit(1)
            query._make_query()
            sql, values = query.query.get_parameterized_sql()
            if values.count(_PK_MARK) != 1:
                raise RuntimeError(f"cannot prepare a read by key of {self._model.__name__}: {sql}")
            statement = self._statements[type(db)] = (sql, values)
        return statement

    async def get_or_none(self, pk: Any) -> M | None:
        if not shortcuts.enabled():
            return await self._model.get_or_none(pk=pk)
        db = self._model._choose_db()
        sql, template = self._statement(db)
        values = [pk if value == _PK_MARK else value for value in template]
        rows = await db.executor_class(model=self._model, db=db).execute_select(sql, values)
        return rows[0] if rows else None
