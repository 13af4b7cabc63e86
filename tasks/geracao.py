"""Rendering generations, and the sweep that keeps none of them stuck."""

from graphql_api.geracao import service
from tasks.broker import broker, runtime

SWEEP_SECONDS = 30


@broker.task(task_name="geracao.renderizar")
async def renderizar(geracao_id: str) -> str | None:
    return await service.renderizar(geracao_id, runtime())


@broker.task(task_name="geracao.varrer")
async def varrer() -> dict:
    return await service.varrer()
