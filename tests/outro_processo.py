"""`python -m tests.outro_processo <integrador_id> <tipo>`: register one event of the test
environment from a process of its own, composed as a `vitrine worker` is (database, runtime with
its invalidation bus), the way a worker registers a finished generation."""

from __future__ import annotations

import asyncio
import sys

from graphql_api.evento import service as eventos
from graphql_api.evento.amostras import amostra
from vitrine import db
from vitrine.runtime import Runtime
from vitrine.settings import Settings


async def main(integrador_id: str, tipo: str) -> None:
    settings = Settings()
    context = await db.connect(settings)
    runtime = Runtime.build(settings)
    await runtime.start()
    try:
        evento = await eventos.registrar(
            tipo, integrador_id=integrador_id, ambiente="teste", conta_id=None, dados=amostra(tipo).dados
        )
        print(evento.id)
    finally:
        await runtime.stop()
        await context.close_connections()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
