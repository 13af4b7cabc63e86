"""Retention purges in bounded batches (the call log, idempotency records, sessions, OAuth).

A purge never deletes or updates a whole table's worth of rows in one statement: on SQLite that
statement would hold the single write lock for seconds (every request that writes, and the call
log's writer, waiting behind it), and on PostgreSQL it would be one long transaction with a
million row locks and a burst of WAL. Instead each step walks its rows in the order of an indexed
column, keyset by keyset; a batch is at most `batch` rows due, found through the index and
changed by primary key in one short statement committed at once, then a pause as long as the
batch took (at least 10 ms): the purge holds SQLite's write lock, and in the embedded default the
web process's event loop, at most about half of the time, and every other writer gets its turn
between batches. A run stops once `budget`
seconds have passed; what is left stays matching, so the next period's run goes on from there.

Every batch re-checks its condition in the DELETE/UPDATE itself and goes by primary key, so two
runs at once (two workers, a run kicked by hand) are harmless: a row goes once, the counts are the rows each run really
changed. The periodic scheduler (tasks/scheduler.py) already enqueues each purge once per period,
and a run's budget is far below the period, so runs do not overlap anyway.

Statements run on a connection of their own (`PURGE_CONNECTION`), never in front of the requests'
queries nor the call log's batches. Partitioning the call log by month was weighed and not taken:
see docs/desenvolvimento.md, "Retenção"."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tortoise import connections
from tortoise.expressions import Q
from tortoise.queryset import QuerySet

PURGE_CONNECTION = "expurgo"

BATCH_ROWS = 1000  # rows per statement: a few ms on either back end
BUDGET_SECONDS = 120.0  # per run; the purges run hourly
MIN_PAUSE_SECONDS = 0.01


class Purge:
    """One run of a retention purge: its batch size, its deadline, and whether it finished."""

    def __init__(
        self,
        *,
        batch: int = BATCH_ROWS,
        budget: float = BUDGET_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.batch = batch
        self.clock = clock  # read once per batch: a test's counter makes the budget a batch count
        self.deadline = clock() + budget
        self.finished = True  # False once a step stopped at the deadline with rows left

    async def delete(self, query: QuerySet, order: str) -> int:
        """Delete the rows of `query`, oldest `order` first; how many were deleted."""
        return await self._walk(query, order, lambda batch: batch.delete())

    async def update(self, query: QuerySet, order: str, **values: Any) -> int:
        """Set `values` on the rows of `query` (which must stop matching once set, or the walk
        would meet them again), oldest `order` first; how many were changed."""
        return await self._walk(query, order, lambda batch: batch.update(**values))

    async def _walk(self, query: QuerySet, order: str, apply: Callable[[QuerySet], Awaitable[int]]) -> int:
        db = connections.get(PURGE_CONNECTION)
        pk = query.model._meta.pk_attr
        keys = (order,) if order == pk else (order, pk)
        changed = 0
        last: tuple | None = None
        while True:
            if self.clock() >= self.deadline:
                self.finished = False
                return changed
            started = time.perf_counter()
            page = query if last is None else query.filter(_after(keys, last))
            rows = await page.using_db(db).order_by(*keys).limit(self.batch).values_list(*keys)
            if not rows:
                return changed
            changed += await apply(query.filter(**{f"{pk}__in": [row[-1] for row in rows]}).using_db(db))
            took = time.perf_counter() - started
            if len(rows) < self.batch:
                return changed
            # Keyset, not "from the start again": on PostgreSQL the index keeps entries of the rows
            # deleted a moment ago until vacuum, and every batch would step over all of them.
            last = tuple(rows[-1])
            await asyncio.sleep(max(MIN_PAUSE_SECONDS, took))


def _after(keys: tuple[str, ...], last: tuple) -> Q:
    """Rows past `last` in the order of `keys`; the `>=` on the first key gives the index a
    range to start from."""
    if len(keys) == 1:
        return Q(**{f"{keys[0]}__gt": last[0]})
    first, pk = keys
    return Q(**{f"{first}__gte": last[0]}) & (
        Q(**{f"{first}__gt": last[0]}) | Q(**{first: last[0], f"{pk}__gt": last[1]})
    )
