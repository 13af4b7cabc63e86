"""The notices' sweep, run by every worker process: it queues the retries that are due, takes
back deliveries whose worker died mid-attempt, re-runs lost test runs and sends the "failing for
1 hour" alert."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from graphql_api.aviso import repository
from graphql_api.aviso.entregas import Resposta, enfileirar_envios
from graphql_api.aviso.falhas import alertar_falhas
from graphql_api.aviso.models import RodadaTeste, Tentativa
from graphql_api.aviso.testes import TESTE_MAX_EXECUCOES, concluir_teste
from graphql_api.core import relogio
from graphql_api.core.tarefas import enfileirar
from graphql_api.core.transactions import transaction

if TYPE_CHECKING:
    from graphql_api.core.recursos import Recursos


async def varrer(runtime: Recursos) -> dict[str, int]:
    """Recover what a lost message or a dead worker left behind, queue due retries, alert."""
    settings = runtime.settings
    agora = relogio.agora()
    retomadas = 0
    for row in await repository.stale_in_flight(agora - timedelta(seconds=settings.aviso_em_voo_max_segundos)):
        async with transaction():
            if await repository.concluir_entrega(
                row["id"], row["reserva"], situacao="pendente", proxima_tentativa_em=agora
            ):
                await Tentativa.create(
                    entrega_id=row["id"],
                    numero=row["tentativas"],
                    iniciada_em=row["em_voo_desde"],
                    erro="interrompida: o processo que enviava parou; a entrega foi retomada",
                )
                retomadas += 1
    requeue_before = agora - timedelta(seconds=settings.aviso_reenfileirar_segundos)
    devidas = [
        entrega_id
        for entrega_id in await repository.due_not_queued(agora, requeue_before)
        if await repository.mark_queued(entrega_id, agora, requeue_before)
    ]
    await enfileirar_envios(devidas)
    await repository.drop_expired_previous_secrets(agora)  # keep only what signing still needs
    rodadas = await _retomar_rodadas(agora - timedelta(seconds=settings.aviso_em_voo_max_segundos))
    alertas = await alertar_falhas(agora, runtime)
    return {"retomadas": retomadas, "enfileiradas": len(devidas), "rodadas": rodadas, "alertas": alertas}


async def _retomar_rodadas(before: datetime) -> int:
    retomadas = 0
    for rodada in await repository.stale_rodadas(before):
        if rodada.execucoes >= TESTE_MAX_EXECUCOES:
            for teste in await repository.testes_of(rodada.id):
                await concluir_teste(teste, {}, "", Resposta(erro="O teste não pôde ser executado."))
            await RodadaTeste.filter(id=rodada.id).update(situacao="concluida", concluida_em=relogio.agora())
            continue
        changed = await RodadaTeste.filter(id=rodada.id, situacao=rodada.situacao, execucoes=rodada.execucoes).update(
            situacao="pendente", iniciada_em=relogio.agora()
        )
        if changed:
            await enfileirar("aviso.testar", rodada.id)
            retomadas += 1
    return retomadas
