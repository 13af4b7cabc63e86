"""Queries of the outbox: the listing and the states of a message's delivery (one attempt per
task; retries and lost tasks wait in the row for the sweep)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from tortoise.expressions import F, Q

from graphql_api.core.filas import Fila, mais_antigo
from graphql_api.email.models import Email

PENDENTE = "pendente"


def of_integrator(integrador_id: str | None):
    # None, a caller of no integrator, matches no row (every message belongs to an integrator)
    return Email.filter(integrador_id=integrador_id)


def _due(agora: datetime) -> Q:
    """Waiting for an attempt whose time came, and held by no attempt in progress."""
    return (Q(proxima_tentativa_em__isnull=True) | Q(proxima_tentativa_em__lte=agora)) & (
        Q(em_voo_ate__isnull=True) | Q(em_voo_ate__lt=agora)
    )


async def reservar(email_id: str, agora: datetime, ate: datetime) -> Email | None:
    """Claim a pendente message for one attempt until `ate`, unless another attempt holds it. The
    next attempt time moves to `ate` too: if this one dies with its worker, the sweep sees it then."""
    claimed = await Email.filter(
        Q(em_voo_ate__isnull=True) | Q(em_voo_ate__lt=agora), id=email_id, situacao=PENDENTE
    ).update(em_voo_ate=ate, proxima_tentativa_em=ate, tentativas=F("tentativas") + 1)
    return await Email.get(id=email_id) if claimed else None


async def concluir(email: Email, **values: Any) -> bool:
    """Record the outcome of the attempt `email` was claimed for (False when a later attempt took it)."""
    updated = await Email.filter(id=email.id, situacao=PENDENTE, tentativas=email.tentativas).update(
        em_voo_ate=None, **values
    )
    return updated == 1


async def devidas(agora: datetime, limit: int = 500) -> list[str]:
    ids = Email.filter(_due(agora), situacao=PENDENTE).order_by("criado_em").limit(limit).values_list("id", flat=True)
    return cast(list[str], await ids)  # tortoise types flat values_list rows as tuples


async def marcar_enfileirada(email_id: str, agora: datetime, ate: datetime) -> bool:
    """Claim the right to queue a due message (concurrent sweeps queue it once); the next sweep
    after `ate` queues it again if its task never ran."""
    return await Email.filter(_due(agora), id=email_id, situacao=PENDENTE).update(proxima_tentativa_em=ate) == 1


async def fila(agora: datetime) -> Fila:
    """Messages waiting to be sent: due since they were written, or since their retry's time (the
    sweep: devidas); a retry not yet due, or an attempt in progress, waits."""
    pendentes = Email.filter(situacao=PENDENTE)
    nunca_tentadas = pendentes.filter(proxima_tentativa_em__isnull=True)
    devidas = pendentes.filter(proxima_tentativa_em__lte=agora)
    return Fila(
        await pendentes.count(), await mais_antigo((nunca_tentadas, "criado_em"), (devidas, "proxima_tentativa_em"))
    )
