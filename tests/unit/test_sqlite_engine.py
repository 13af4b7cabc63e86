"""The embedded database's engine: a transaction that reads, then writes after the call log's
connection committed, waits its turn instead of failing with "database is locked"."""

import asyncio
import os
import sys

import pytest
from tortoise import connections

from graphql_api.chamada.models import CALL_LOG_CONNECTION
from graphql_api.core.transactions import MAIN_CONNECTION, transaction
from vitrine.infra.cpu import BACKGROUND_NICENESS
from vitrine.settings import Settings

pytestmark = pytest.mark.skipif(not Settings().is_sqlite, reason="SQLite only")


@pytest.fixture
def settings() -> Settings:
    """The production priorities: the test command runs everything at one (VITRINE_BACKGROUND_NICENESS=0)."""
    return Settings(call_log_process=False, background_niceness=BACKGROUND_NICENESS)


async def test_read_then_write_transaction_survives_a_commit_on_the_other_connection(client):
    log = connections.get(CALL_LOG_CONNECTION)
    await log.execute_script("CREATE TABLE IF NOT EXISTS teste_concorrencia (origem TEXT)")
    async with transaction():
        main = connections.get(MAIN_CONNECTION)  # the transaction's own
        await main.execute_query("SELECT count(*) FROM teste_concorrencia")  # a snapshot is taken
        other = asyncio.create_task(log.execute_query("INSERT INTO teste_concorrencia VALUES ('outra')"))
        await asyncio.sleep(0.2)  # the other connection commits now, or waits for this transaction
        await main.execute_query("INSERT INTO teste_concorrencia VALUES ('principal')")
    await other
    rows = await connections.get(MAIN_CONNECTION).execute_query_dict("SELECT origem FROM teste_concorrencia")
    assert {"principal", "outra"} <= {r["origem"] for r in rows}


async def test_a_transaction_cancelled_while_it_begins_leaves_the_connection_usable(client):
    main = connections.get(MAIN_CONNECTION)
    log = connections.get(CALL_LOG_CONNECTION)
    await log.execute_script("CREATE TABLE IF NOT EXISTS teste_cancelamento (x TEXT)")
    await asyncio.sleep(0.5)  # the app's start-up jobs are done with the database
    # given the call log's connection holding the write lock, so BEGIN IMMEDIATE waits
    async with log.acquire_connection() as raw:
        await raw.execute("BEGIN IMMEDIATE")

        async def unit_of_work():
            async with transaction():
                await connections.get(MAIN_CONNECTION).execute_query("INSERT INTO teste_cancelamento VALUES ('a')")

        # when a task is cancelled while its transaction is beginning (a shutdown, say)
        task = asyncio.create_task(unit_of_work())
        async with asyncio.timeout(3):
            while not main._lock.locked():  # the transaction took the connection and sent BEGIN
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await raw.execute("ROLLBACK")
    # then the main connection still answers, in and out of transactions (it hung for good before)
    async with asyncio.timeout(10):
        async with transaction():
            await connections.get(MAIN_CONNECTION).execute_query("INSERT INTO teste_cancelamento VALUES ('b')")
        rows = await connections.get(MAIN_CONNECTION).execute_query_dict("SELECT x FROM teste_cancelamento")
    assert [r["x"] for r in rows] == ["b"]


def _nice_of_thread(native_id: int) -> int:
    # /proc/self/task/TID/stat: the 19th field is the thread's nice value (after "(comm)").
    with open(f"/proc/self/task/{native_id}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[16])


@pytest.mark.skipif(sys.platform != "linux", reason="nice values per thread are Linux's")
async def test_the_call_logs_connection_thread_yields_the_cpu_to_the_requests(client):
    from graphql_api.core.purge import PURGE_CONNECTION

    def thread_of(name: str) -> int:
        return connections.get(name)._connection._thread.native_id

    for name in (MAIN_CONNECTION, CALL_LOG_CONNECTION, PURGE_CONNECTION):
        await connections.get(name).execute_query("SELECT 1")  # opened on first use
    requests_nice = _nice_of_thread(thread_of(MAIN_CONNECTION))
    assert requests_nice == os.getpriority(os.PRIO_PROCESS, 0)
    assert _nice_of_thread(thread_of(CALL_LOG_CONNECTION)) == min(requests_nice + BACKGROUND_NICENESS, 19)
    assert _nice_of_thread(thread_of(PURGE_CONNECTION)) == requests_nice  # holds the write lock longer
