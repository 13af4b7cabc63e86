"""Events: the single entry point every domain uses to say that something happened.

`registrar` runs inside the transaction of the change it describes (joining it; it opens one
when there is none), so an event exists if and only if the change was committed. In the same
transaction each subscribed notice address gets a delivery row (the outbox); the sends are
queued once it commits."""

from __future__ import annotations

from typing import Any

from graphql_api.core.ids import new_id
from graphql_api.core.transactions import transaction
from graphql_api.evento.catalog import EVENT_TYPES
from graphql_api.evento.models import Evento
from graphql_api.integracao import service as integracao


async def registrar(
    tipo: str, *, integrador_id: str, ambiente: str, conta_id: str | None, dados: dict[str, Any]
) -> Evento:
    from graphql_api.aviso import entregas  # avisos depends on the event catalog

    if tipo not in EVENT_TYPES:
        raise ValueError(f"unknown event type {tipo}")
    async with transaction():
        evento = await Evento.create(
            id=new_id("evt_"), integrador_id=integrador_id, ambiente=ambiente, tipo=tipo, conta_id=conta_id, dados=dados
        )
        await entregas.enfileirar_entregas(evento)
        await integracao.registrar_evento(evento)
    return evento
