"""Events: the single entry point every domain uses to say that something happened.

`registrar` runs inside the transaction of the change it describes (joining it; it opens one
when there is none), so an event exists if and only if the change was committed. In the same
transaction each subscribed notice address gets a delivery row (the outbox); the sends are
queued once it commits, and so does each live listening session (`vitrine-cli listen`) of the
test environment. Those reactions belong to the domains above this one (the notices' outbox,
the integration steps): they receive `registrado`, connected by the composition root.

`dados` is the event type's payload model (graphql_api/evento/payloads.py), never a dict: what is
stored and sent is that model's dump, so it cannot differ from what the OpenAPI document and the
docs publish."""

from __future__ import annotations

from graphql_api.core.ids import new_id
from graphql_api.core.sinais import Sinal
from graphql_api.core.transactions import transaction
from graphql_api.evento.catalog import EVENT_TYPES
from graphql_api.evento.models import Evento
from graphql_api.evento.payloads import DADOS, DadosEvento

# Every event registered, inside its transaction: the notices' deliveries and listening sessions
# (graphql_api/aviso), the integration steps (graphql_api/integracao; a sample proves nothing).
registrado: Sinal[Evento] = Sinal("evento.registrado")


async def registrar(
    tipo: str,
    *,
    integrador_id: str,
    ambiente: str,
    conta_id: str | None,
    dados: DadosEvento,
    amostra: bool = False,
) -> Evento:
    """`dados`: an instance of `tipo`'s model (DADOS[tipo]). `amostra`: a sample (POST
    /avisos/disparos), delivered like any event but proof of nothing for the integration steps."""
    if tipo not in EVENT_TYPES:
        raise ValueError(f"unknown event type {tipo}")
    if type(dados) is not DADOS[tipo]:
        raise TypeError(f"{tipo} takes {DADOS[tipo].__name__}, not {type(dados).__name__}")
    async with transaction():
        evento = await Evento.create(
            id=new_id("evt_"),
            integrador_id=integrador_id,
            ambiente=ambiente,
            tipo=tipo,
            conta_id=conta_id,
            dados=dados.model_dump(mode="json"),
            amostra=amostra,
        )
        await registrado.emitir(evento)
    return evento
