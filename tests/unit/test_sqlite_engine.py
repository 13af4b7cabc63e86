"""The embedded database's engine: a transaction that reads, then writes after the call log's
connection committed, waits its turn instead of failing with "database is locked"."""

import asyncio

import pytest
from tortoise import connections

from graphql_api.chamada.models import CALL_LOG_CONNECTION
from graphql_api.core.transactions import MAIN_CONNECTION, transaction
from vitrine.settings import Settings

pytestmark = pytest.mark.skipif(not Settings().is_sqlite, reason="SQLite only")


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
