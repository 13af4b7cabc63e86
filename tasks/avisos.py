"""Notice deliveries and test runs, and the sweep that keeps them going.

Retries are declared by the delivery rows themselves, not by the broker: after a failed
attempt the row gets its next time from the schedule of graphql_api.aviso.entregas
(agenda_nominal: exponential with jitter over at least 24 hours, Retry-After honoured), and
the sweep (aviso.varrer, one of the periodic jobs) queues it when it is due. A lost message or a worker killed mid-attempt is recovered
from the rows by the same sweep."""

from __future__ import annotations

from graphql_api.aviso import entregas, testes, varredura
from tasks.broker import broker, runtime
from vitrine import metrics


@broker.task(task_name="aviso.entregar")
async def entregar_aviso(entrega_id: str) -> str:
    outcome = await entregas.tentar_entrega(entrega_id, runtime())
    metrics.NOTICE_ATTEMPTS.labels(outcome).inc()
    return outcome


@broker.task(task_name="aviso.testar")
async def testar_aviso(rodada_id: str) -> bool:
    return await testes.executar_rodada(rodada_id, runtime())


@broker.task(task_name="aviso.varrer")
async def varrer() -> dict:
    """Every VITRINE_AVISO_VARREDURA_SEGUNDOS (tasks/maintenance.py): each row is claimed with a
    conditional update, so sweeps that overlap do not repeat work."""
    return await varredura.varrer(runtime())
