"""Listening sessions (`vitrine-cli listen`) and sample events (`vitrine-cli trigger`), test
environment only (docs/avisos.md, "Escutar no seu computador").

A session is a row, so every web process counts the same sessions and every process that
registers an event (a web process, a `vitrine worker`) writes the session's deliveries in the
event's own transaction, as it does for registered addresses (the outbox). The stream that hands
them to the command runs in one web process; after the commit the event's process wakes it: on
the invalidation bus (Redis pub/sub across processes, in-process in the embedded default) when the
composition root wired it (`ligar`), and in any case the stream reads its deliveries again at each
heartbeat, so a lost wake-up delays a delivery by one heartbeat at most.

The command signs each delivery with the session's secret (shown once, never stored) and reports
the local answer, which becomes the delivery's result."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from graphql_api.aviso import assinatura, repository
from graphql_api.aviso.entregas import corpo_do_evento
from graphql_api.aviso.models import EntregaEscuta, Escuta
from graphql_api.aviso.schemas import Disparo, NovaEscuta, ResultadoEscuta
from graphql_api.core import relogio
from graphql_api.core.errors import ApiError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Ambiente, Principal
from graphql_api.core.transactions import after_commit, transaction
from graphql_api.core.validation import validate
from graphql_api.evento import amostras
from graphql_api.evento import service as eventos
from graphql_api.evento.models import Evento

log = logging.getLogger(__name__)

MAX_ESCUTAS = 3  # open sessions per integrator (test environment only)
# A session whose stream gave no sign of life for this long is over (its process died, or it was
# opened and never connected): it stops counting and receiving.
VIDA = timedelta(seconds=60)
ESPERA_MAX_SEGUNDOS = 25  # the longest a stream waits for deliveries before its next heartbeat
LOTE = 50  # deliveries handed to the stream at a time
TOPICO = "escuta:"  # invalidation-bus topic prefix: "escuta:<esc_id>" wakes that session's stream


@dataclass(frozen=True, slots=True)
class Abertura:
    escuta: Escuta
    segredo: str  # whsec_…, shown once: the command signs with it, the service keeps nothing


@dataclass(frozen=True, slots=True)
class Lote:
    """What a stream hands to the command next; `encerrada` tells it to stop."""

    encerrada: bool
    entregas: list[EntregaEscuta]


# -- waking streams ---------------------------------------------------------------------------

_acordar: dict[str, set[asyncio.Event]] = {}  # streams of this process, by session
_publicar: Callable[[str], Awaitable[None]] | None = None


def ligar(publicar: Callable[[str], Awaitable[None]] | None) -> None:
    """Install how a wake-up reaches every process (the runtime's invalidation bus, whose handlers
    call `acordar`). Without it only this process's streams wake at once."""
    global _publicar
    _publicar = publicar


def acordar(topico: str) -> None:
    """Invalidation-bus handler: wake the stream of the session the topic names, if it is here."""
    if topico.startswith(TOPICO):
        for evento in _acordar.get(topico.removeprefix(TOPICO), ()):
            evento.set()


async def _sinalizar(escuta_ids: list[str]) -> None:
    for escuta_id in escuta_ids:
        topico = TOPICO + escuta_id
        if _publicar is None:
            acordar(topico)
            continue
        try:
            await _publicar(topico)  # dispatches here too
        except Exception:  # the stream reads again at its next heartbeat anyway
            log.warning("could not publish %s", topico, exc_info=True)
            acordar(topico)


async def _esperar(escuta_id: str, segundos: float) -> None:
    evento = asyncio.Event()
    _acordar.setdefault(escuta_id, set()).add(evento)
    try:
        await asyncio.wait_for(evento.wait(), timeout=segundos)
    except TimeoutError:
        pass
    finally:
        waiting = _acordar.get(escuta_id)
        if waiting is not None:
            waiting.discard(evento)
            if not waiting:
                del _acordar[escuta_id]


# -- sessions ---------------------------------------------------------------------------------


def _so_teste(principal: Principal) -> None:
    if principal.ambiente is not Ambiente.TESTE:
        raise ApiError("TEST_ENVIRONMENT_ONLY")


async def abrir(principal: Principal, dados: Any) -> Abertura:
    _so_teste(principal)
    nova = validate(NovaEscuta, dados)
    agora = relogio.agora()
    integrador_id = principal.integrador_exigido
    async with transaction():
        # Serialises concurrent openings of one integrator, so the limit holds across processes.
        await repository.travar_integrador(integrador_id)
        if await repository.escutas_vivas(integrador_id, principal.ambiente.value, agora - VIDA).count() >= MAX_ESCUTAS:
            raise ApiError("NOTICE_LISTEN_LIMIT_REACHED")
        segredo, _ = assinatura.novo_segredo()
        escuta = await Escuta.create(
            id=new_id("esc_"),
            integrador_id=integrador_id,
            ambiente=principal.ambiente.value,
            eventos=nova.eventos,
            sinal_em=agora,
        )
    return Abertura(escuta, segredo)


async def obter(principal: Principal, escuta_id: str) -> Escuta:
    return await encontrar(
        escuta_id,
        "esc_",
        lambda: repository.escuta_visivel(principal, escuta_id),
        f"Sessão de escuta {escuta_id} não encontrada neste ambiente.",
    )


def situacao(escuta: Escuta) -> str:
    """What the session is now: a session that stopped giving signs of life is over, written or not."""
    if escuta.situacao != "encerrada" and escuta.sinal_em < relogio.agora() - VIDA:
        return "encerrada"
    return escuta.situacao


async def conectar(principal: Principal, escuta_id: str) -> Escuta:
    """The stream starts: one per session, while the session is still alive."""
    escuta = await obter(principal, escuta_id)
    agora = relogio.agora()
    if not await repository.conectar_escuta(escuta.id, agora, agora - VIDA):
        raise ApiError("NOTICE_LISTEN_CLOSED")
    await escuta.refresh_from_db()
    return escuta


async def proximas(principal: Principal, escuta_id: str, espera_segundos: float) -> Lote:
    """The stream's heartbeat and its next deliveries: the ones waiting now, or else those that
    arrive within `espera_segundos` (a long poll). Each is handed out once (pendente -> enviando)."""
    escuta = await obter(principal, escuta_id)
    espera = min(max(espera_segundos, 0.0), ESPERA_MAX_SEGUNDOS)
    for tentativa in range(2):
        if not await repository.sinal_escuta(escuta.id, relogio.agora()):
            return Lote(encerrada=True, entregas=[])
        entregas = await repository.tomar_entregas_escuta(escuta.id, relogio.agora(), LOTE)
        if entregas or tentativa or espera == 0:
            return Lote(encerrada=False, entregas=entregas)
        await _esperar(escuta.id, espera)
    raise AssertionError("unreachable")


async def encerrar(principal: Principal, escuta_id: str) -> Escuta:
    """End a session (the command stopped, or its stream closed): it stops receiving at once, and
    its stream, wherever it runs, wakes up to end."""
    escuta = await obter(principal, escuta_id)
    if await repository.encerrar_escuta(escuta.id, relogio.agora()):
        await _sinalizar([escuta.id])
    await escuta.refresh_from_db()
    return escuta


async def registrar_resultado(principal: Principal, escuta_id: str, entrega_id: str, dados: Any) -> EntregaEscuta:
    """The local address's answer to a delivery handed out: 2XX is entregue, anything else (or no
    answer) falhou. Recorded once; a repeated report changes nothing. Accepted after the session
    ended too, since the last answer may come after Ctrl-C."""
    resultado = validate(ResultadoEscuta, dados)
    escuta = await obter(principal, escuta_id)
    entrega = await encontrar(
        entrega_id,
        "ent_",
        lambda: repository.entregas_escuta(escuta.id).filter(id=entrega_id).first(),
        f"Entrega {entrega_id} não encontrada nesta sessão de escuta.",
    )
    status = resultado.status
    await repository.responder_entrega_escuta(
        entrega.id,
        situacao="entregue" if status is not None and 200 <= status < 300 else "falhou",
        status=status,
        resposta=resultado.resposta,
        erro=resultado.erro,
        duracao_ms=round(float(resultado.duracaoMs), 1),
        respondida_em=relogio.agora(),
    )
    await entrega.refresh_from_db()
    return entrega


async def listar_entregas(
    principal: Principal, escuta_id: str, page: PageRequest
) -> tuple[list[EntregaEscuta], str | None]:
    escuta = await obter(principal, escuta_id)
    return await paginate(repository.entregas_escuta(escuta.id), page)


# -- events -----------------------------------------------------------------------------------


async def enfileirar_entregas(evento: Evento) -> list[str]:
    """One delivery per live session of the event's integrator that listens to its type; inside
    the event's transaction (graphql_api/evento/service.registrar). Test environment only."""
    if evento.ambiente != Ambiente.TESTE.value:
        return []
    agora = relogio.agora()
    escutas = [
        e
        for e in await repository.escutas_vivas(evento.integrador_id, evento.ambiente, agora - VIDA)
        if not e.eventos or evento.tipo in e.eventos
    ]
    if not escutas:
        return []
    corpo = corpo_do_evento(evento)
    entregas = [
        EntregaEscuta(id=new_id("ent_"), escuta_id=e.id, evento_id=evento.id, tipo=evento.tipo, corpo=corpo)
        for e in escutas
    ]
    await EntregaEscuta.bulk_create(entregas)
    ids = [e.id for e in escutas]
    await after_commit(lambda: _sinalizar(ids))
    return [e.id for e in entregas]


async def disparar(principal: Principal, dados: Any) -> Evento:
    """Emit a sample event of a type in the test environment: to the live sessions and to the
    registered addresses that subscribe to it, as a real one would be."""
    _so_teste(principal)
    disparo = validate(Disparo, dados)
    amostra = amostras.amostra(disparo.tipo)
    return await eventos.registrar(
        disparo.tipo,
        integrador_id=principal.integrador_exigido,
        ambiente=principal.ambiente.value,
        conta_id=amostra.conta_id,
        dados=amostra.dados,
        amostra=True,
    )
