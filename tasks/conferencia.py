"""Quality checks: one task per check row, and the sweep that recovers lost or stuck ones."""

from graphql_api.conferencia import service
from tasks.broker import broker, runtime

SWEEP_SECONDS = 60


@broker.task(task_name="conferencia.executar")
async def executar(conferencia_id: str) -> str | None:
    return await service.executar(conferencia_id, runtime())


@broker.task(task_name="conferencia.varrer")
async def varrer() -> dict:
    return await service.varrer()
