"""Notice deliveries and test runs, and the sweep that keeps them going.

Retries are declared by the delivery rows themselves, not by the broker: after a failed
attempt the row gets its next time from the schedule of graphql_api.aviso.service
(agenda_nominal: exponential with jitter over at least 24 hours, Retry-After honoured), and
the sweep queues it when it is due. A lost message or a worker killed mid-attempt is recovered
from the rows by the same sweep."""

from __future__ import annotations

from graphql_api.aviso import service
from tasks.broker import broker, runtime
from tasks.scheduler import Loop


@broker.task(task_name="aviso.entregar")
async def entregar_aviso(entrega_id: str) -> str:
    return await service.tentar_entrega(entrega_id, runtime())


@broker.task(task_name="aviso.testar")
async def testar_aviso(rodada_id: str) -> bool:
    return await service.executar_rodada(rodada_id, runtime())


class Varredura(Loop):
    """service.varrer every few seconds. Every worker process runs one: each row is claimed with
    a conditional update, so concurrent sweeps do not repeat work."""

    name = "avisos-varredura"

    def __init__(self, rt, period: float) -> None:
        super().__init__(period)
        self.runtime = rt

    async def run_once(self) -> None:
        await service.varrer(self.runtime)
