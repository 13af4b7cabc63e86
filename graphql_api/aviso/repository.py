"""Queries of the notices domain."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from tortoise.expressions import F, Q, Subquery

from graphql_api.aviso.models import Aviso, Entrega, EntregaEscuta, Escuta, RodadaTeste, Tentativa, TesteAviso
from graphql_api.core.filas import Fila, mais_antigo
from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import tenant_filter
from graphql_api.integrador.models import Integrador


def visible(principal: Principal):
    return Aviso.filter(**tenant_filter(principal))


async def get_visible(principal: Principal, aviso_id: str) -> Aviso | None:
    return await visible(principal).filter(id=aviso_id).first()


async def by_url(principal: Principal, url: str) -> Aviso | None:
    return await visible(principal).filter(url=url).first()


async def count(principal: Principal) -> int:
    return await visible(principal).count()


async def newest_active(principal: Principal) -> Aviso | None:
    return await visible(principal).filter(situacao="ativo").order_by("-atualizado_em").first()


async def active_for(integrador_id: str, ambiente: str) -> list[Aviso]:
    return await Aviso.filter(integrador_id=integrador_id, ambiente=ambiente, situacao="ativo")


def entregas_of(aviso_id: str):
    return Entrega.filter(aviso_id=aviso_id)


async def tentativas_of(entrega_ids: list[str]) -> dict[str, list[Tentativa]]:
    by_entrega: dict[str, list[Tentativa]] = {i: [] for i in entrega_ids}
    for tentativa in await Tentativa.filter(entrega_id__in=entrega_ids).order_by("numero", "id"):
        by_entrega[tentativa.entrega_id].append(tentativa)
    return by_entrega


async def reservar_entrega(entrega_id: str, agora: datetime, reserva: str) -> bool:
    """pendente and due -> enviando, for this claim only: one sender at a time, and never one
    after a 2XX was recorded."""
    updated = await Entrega.filter(id=entrega_id, situacao="pendente", proxima_tentativa_em__lte=agora).update(
        situacao="enviando", em_voo_desde=agora, reserva=reserva, tentativas=F("tentativas") + 1
    )
    return updated == 1


async def concluir_entrega(entrega_id: str, reserva: str, **values: Any) -> bool:
    """Record the outcome of the claim `reserva` (False when a sweep took the delivery back)."""
    updated = await Entrega.filter(id=entrega_id, reserva=reserva).update(
        reserva=None, em_voo_desde=None, enfileirada_em=None, **values
    )
    return updated == 1


async def stale_in_flight(before: datetime, limit: int = 500) -> list[dict]:
    return (
        await Entrega.filter(situacao="enviando", em_voo_desde__lt=before)
        .limit(limit)
        .values("id", "reserva", "tentativas", "em_voo_desde")
    )


def _not_queued(requeue_before: datetime) -> Q:
    return Q(enfileirada_em__isnull=True) | Q(enfileirada_em__lt=requeue_before)


async def due_not_queued(agora: datetime, requeue_before: datetime, limit: int = 500) -> list[str]:
    ids = await (
        Entrega.filter(situacao="pendente", proxima_tentativa_em__lte=agora)
        .filter(_not_queued(requeue_before))
        .order_by("proxima_tentativa_em")
        .limit(limit)
        .values_list("id", flat=True)
    )
    return cast(list[str], ids)  # tortoise types flat values_list rows as tuples


async def mark_queued(entrega_id: str, agora: datetime, requeue_before: datetime) -> bool:
    """Claim the right to queue a due delivery, so concurrent sweeps queue it once."""
    updated = (
        await Entrega.filter(id=entrega_id, situacao="pendente")
        .filter(_not_queued(requeue_before))
        .update(enfileirada_em=agora)
    )
    return updated == 1


async def fail_pending_of(aviso_id: str) -> int:
    return await Entrega.filter(aviso_id=aviso_id, situacao="pendente").update(
        situacao="falhou", proxima_tentativa_em=None, enfileirada_em=None
    )


async def drop_expired_previous_secrets(agora: datetime) -> int:
    # Read first: an UPDATE takes SQLite's write lock even when it matches nothing, and this runs
    # every few seconds beside the call log's writes.
    expired = await Aviso.filter(segredo_anterior_expira_em__lte=agora).values_list("id", flat=True)
    if not expired:
        return 0
    return await Aviso.filter(id__in=list(expired), segredo_anterior_expira_em__lte=agora).update(
        segredo_anterior_cifrado=None, segredo_anterior_expira_em=None
    )


async def failing_without_alert(before: datetime) -> list[Aviso]:
    return await Aviso.filter(situacao="ativo", falhando_desde__lte=before, alerta_falha_em__isnull=True)


async def reservar_alerta(aviso_id: str, before: datetime, agora: datetime) -> bool:
    updated = await Aviso.filter(
        id=aviso_id, situacao="ativo", falhando_desde__lte=before, alerta_falha_em__isnull=True
    ).update(alerta_falha_em=agora)
    return updated == 1


async def latest_rodada(integrador_id: str, ambiente: str, *, aviso_id: str | None = None) -> RodadaTeste | None:
    query = RodadaTeste.filter(integrador_id=integrador_id, ambiente=ambiente)
    if aviso_id is not None:
        query = query.filter(aviso_id=aviso_id)
    return await query.order_by("-id").first()


async def teste_visible(principal: Principal, teste_id: str) -> TesteAviso | None:
    return await TesteAviso.get_or_none(id=teste_id, **tenant_filter(principal))


async def testes_of(rodada_id: str) -> list[TesteAviso]:
    return await TesteAviso.filter(rodada_id=rodada_id).order_by("id")


async def reservar_rodada(rodada_id: str, agora: datetime) -> bool:
    updated = await RodadaTeste.filter(id=rodada_id, situacao="pendente").update(
        situacao="enviando", iniciada_em=agora, execucoes=F("execucoes") + 1
    )
    return updated == 1


async def stale_rodadas(before: datetime) -> list[RodadaTeste]:
    return await RodadaTeste.filter(situacao__in=("pendente", "enviando")).filter(
        Q(iniciada_em__lt=before) | Q(iniciada_em__isnull=True, criado_em__lt=before)
    )


# -- listening sessions (graphql_api/aviso/escutas.py) -------------------------------------------


async def travar_integrador(integrador_id: str) -> None:
    """Lock the integrator's row until the transaction ends (PostgreSQL; SQLite writes one at a time)."""
    await Integrador.select_for_update().filter(id=integrador_id).first()


def escutas_vivas(integrador_id: str, ambiente: str, desde: datetime):
    """Sessions still open: not ended, with a sign of life since `desde`."""
    return Escuta.filter(
        integrador_id=integrador_id, ambiente=ambiente, situacao__in=("aberta", "conectada"), sinal_em__gte=desde
    )


async def escuta_visivel(principal: Principal, escuta_id: str) -> Escuta | None:
    return await Escuta.filter(**tenant_filter(principal), id=escuta_id).first()


async def conectar_escuta(escuta_id: str, agora: datetime, desde: datetime) -> bool:
    """aberta and alive -> conectada: one stream per session."""
    updated = await Escuta.filter(id=escuta_id, situacao="aberta", sinal_em__gte=desde).update(
        situacao="conectada", conectada_em=agora, sinal_em=agora
    )
    return updated == 1


async def sinal_escuta(escuta_id: str, agora: datetime) -> bool:
    """A connected session's sign of life; False once it ended."""
    return await Escuta.filter(id=escuta_id, situacao="conectada").update(sinal_em=agora) == 1


async def encerrar_escuta(escuta_id: str, agora: datetime) -> bool:
    updated = await Escuta.filter(id=escuta_id, situacao__in=("aberta", "conectada")).update(
        situacao="encerrada", encerrada_em=agora
    )
    return updated == 1


def entregas_escuta(escuta_id: str):
    return EntregaEscuta.filter(escuta_id=escuta_id)


async def tomar_entregas_escuta(escuta_id: str, agora: datetime, limite: int) -> list[EntregaEscuta]:
    """The session's waiting deliveries, oldest first, each marked as handed out (pendente ->
    enviando; a session has one stream, so nobody else takes them)."""
    rows = await EntregaEscuta.filter(escuta_id=escuta_id, situacao="pendente").order_by("id").limit(limite)
    if rows:
        await EntregaEscuta.filter(id__in=[r.id for r in rows], situacao="pendente").update(
            situacao="enviando", enviada_em=agora
        )
    return rows


async def responder_entrega_escuta(entrega_id: str, **values: Any) -> bool:
    """Record the answer of a delivery handed out, once."""
    return await EntregaEscuta.filter(id=entrega_id, situacao="enviando").update(**values) == 1


async def fila(now: datetime) -> Fila:
    """Deliveries not yet settled: due since their next attempt's time (the sweep: due_not_queued),
    and those in flight since their attempt began (stale_in_flight); a retry not yet due waits."""
    itens = await Entrega.filter(situacao__in=("pendente", "enviando")).count()
    devidas = Entrega.filter(situacao="pendente", proxima_tentativa_em__lte=now)
    em_voo = Entrega.filter(situacao="enviando")
    return Fila(itens, await mais_antigo((devidas, "proxima_tentativa_em"), (em_voo, "em_voo_desde")))


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """The test environment's notice deliveries and their attempts (graphql_api/core/dados_de_teste.py).
    Kept: the addresses and their test runs."""
    avisos = Aviso.filter(integrador_id=integrador_id, ambiente="teste").values("id")
    entregas = Entrega.filter(aviso_id__in=Subquery(avisos)).values("id")
    return {
        "tentativas": await Tentativa.filter(entrega_id__in=Subquery(entregas)).delete(),
        "entregas": await Entrega.filter(aviso_id__in=Subquery(avisos)).delete(),
    }
