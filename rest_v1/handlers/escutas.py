"""Listening sessions (`vitrine-cli listen`) and sample events (`vitrine-cli trigger`), test
environment only. A session's deliveries flow to the command as server-sent events: the handler
writes straight to its StreamResponse, which no middleware of the facade buffers (the call log
keeps no body of a streamed response and records the call when the stream ends)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

from aiohttp import web

from graphql_api.aviso.schemas import Disparo, NovaEscuta, ResultadoEscuta
from graphql_api.core.inputs import entrada
from graphql_api.operations import aviso as ops
from graphql_api.operations import fragments
from rest_v1.gql import body, execute, page_variables, query_params
from rest_v1.keys import JSON_BODY, REQUEST_ID
from rest_v1.responses import json_body, ok, page
from rest_v1.routing import Routes, page_parameters

log = logging.getLogger("vitrine.api")

# OAuth rule 5: /avisos and its sub-paths are the integrator's own.
routes = Routes("Avisos", scope="avisos:gerenciar", integrator_only=True)

# Streams of this process end when it shuts down, rather than hold the shutdown until its timeout.
CLOSING = web.AppKey("escutas_closing", asyncio.Event)

HEARTBEAT_SECONDS = 15  # a comment line at least this often: proxies keep the connection, the session stays alive
DISCONNECT_POLL_SECONDS = 0.5
_ERRORS = ("FORBIDDEN", "TEST_ENVIRONMENT_ONLY")
ENTREGAS_QUERY = page_parameters("ent_")
_FLUXO_DOC = (
    "Eventos enviados pelo servidor (text/event-stream), um por entrega: `event: sessao` (a sessão, ao "
    "conectar), `event: aviso` com `id` igual ao webhook-id e `data` {id, eventoId, tipo, corpo} (corpo é o "
    "JSON exato a assinar e encaminhar), `event: encerrada` quando a sessão termina, e a cada 15 s uma "
    "linha de comentário `: ping`. Uma conexão por sessão; fechar a conexão encerra a sessão."
)


def setup(app: web.Application) -> None:
    app[CLOSING] = asyncio.Event()

    async def close_streams(app: web.Application) -> None:
        app[CLOSING].set()

    app.on_shutdown.append(close_streams)


def _sse(event: str, data: Any, *, event_id: str | None = None) -> bytes:
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id else "")
    return head.encode() + b"data: " + json_body(data) + b"\n\n"


async def _disconnected(request: web.Request) -> None:
    """Returns once the client's connection is gone (aiohttp does not cancel a handler for that)."""
    while request.transport is not None and not request.transport.is_closing():
        await asyncio.sleep(DISCONNECT_POLL_SECONDS)


async def _unless_gone(request: web.Request, work: Awaitable[dict[str, Any]]) -> dict[str, Any] | None:
    """`work`'s result, or None when the client left or the process is shutting down first."""
    task = asyncio.ensure_future(work)
    watchers = {
        asyncio.ensure_future(_disconnected(request)),
        asyncio.ensure_future(request.app[CLOSING].wait()),
    }
    try:
        done, _ = await asyncio.wait({task, *watchers}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for watcher in watchers:
            watcher.cancel()
    if task in done:
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return None


@routes.post(
    "/avisos/escutas",
    summary="Abre uma sessão de escuta (vitrine-cli listen), só em teste",
    status=201,
    body=NovaEscuta,
    body_required=False,
    response=fragments.ESCUTA,
    response_extra=(("AberturaEscutaAviso", "segredo"),),
    errors=_ERRORS + ("VALIDATION_FAILED", "NOTICE_LISTEN_LIMIT_REACHED"),
    description="Até 3 sessões abertas por integrador. `segredo` (whsec_) vem só nesta resposta: assine com ele "
    "cada entrega que encaminhar. Conecte-se ao fluxo (GET /avisos/escutas/{escutaId}/eventos) em até 1 minuto.",
)
async def abrir_escuta(request: web.Request) -> web.Response:
    result = (await execute(request, ops.ABRIR_ESCUTA, dados=entrada(NovaEscuta, request.get(JSON_BODY) or {})))[
        "abrirEscutaAviso"
    ]
    return ok(result["escuta"] | {"segredo": result["segredo"]}, status=201)


@routes.get(
    "/avisos/escutas/{escutaId}",
    summary="Uma sessão de escuta",
    response=fragments.ESCUTA,
    errors=_ERRORS + ("NOT_FOUND",),
)
async def obter_escuta(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.OBTER_ESCUTA, id=request.match_info["escutaId"]))["escutaAviso"])


@routes.delete(
    "/avisos/escutas/{escutaId}",
    summary="Encerra uma sessão de escuta",
    status=204,
    errors=_ERRORS + ("NOT_FOUND",),
)
async def encerrar_escuta(request: web.Request) -> web.Response:
    await execute(request, ops.ENCERRAR_ESCUTA, id=request.match_info["escutaId"])
    return web.Response(status=204)


@routes.get(
    "/avisos/escutas/{escutaId}/eventos",
    summary="O fluxo de entregas de uma sessão de escuta (server-sent events)",
    media_type="text/event-stream",
    sse_events=("sessao", "aviso", "encerrada"),
    errors=_ERRORS + ("NOT_FOUND", "NOTICE_LISTEN_CLOSED"),
    description=_FLUXO_DOC,
)
async def fluxo_escuta(request: web.Request) -> web.StreamResponse:
    escuta_id = request.match_info["escutaId"]
    escuta = (await execute(request, ops.CONECTAR_ESCUTA, id=escuta_id))["conectarEscutaAviso"]
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache, no-store",
            "X-Accel-Buffering": "no",  # reverse proxies (nginx) pass each event on at once
        }
    )
    await response.prepare(request)
    try:
        await response.write(_sse("sessao", escuta))
        while True:
            lote = await _unless_gone(
                request,
                execute(request, ops.PROXIMAS_ENTREGAS_ESCUTA, escutaId=escuta_id, esperaSegundos=HEARTBEAT_SECONDS),
            )
            if lote is None:
                break
            proximas = lote["proximasEntregasEscuta"]
            for entrega in proximas["entregas"]:
                await response.write(_sse("aviso", entrega, event_id=entrega["id"]))
            if proximas["encerrada"]:
                await response.write(_sse("encerrada", {"id": escuta_id}))
                break
            if not proximas["entregas"]:
                await response.write(b": ping\n\n")
    except ConnectionError:  # the client left while we wrote
        pass
    except Exception:  # the status line is gone: the error envelope cannot follow, the log can
        log.exception("listening stream %s failed (%s)", escuta_id, request.get(REQUEST_ID))
    finally:
        # Whatever ended the stream ends the session; shielded so a cancelled handler still frees it.
        await asyncio.shield(execute(request, ops.ENCERRAR_ESCUTA, id=escuta_id))
    with contextlib.suppress(ConnectionError):
        await response.write_eof()
    return response


@routes.get(
    "/avisos/escutas/{escutaId}/entregas",
    summary="Entregas de uma sessão de escuta, com o que o endereço local respondeu",
    response=fragments.ENTREGA_ESCUTA,
    list_response=True,
    query=ENTREGAS_QUERY,
    errors=_ERRORS + ("NOT_FOUND", "VALIDATION_FAILED"),
)
async def listar_entregas_escuta(request: web.Request) -> web.Response:
    params = query_params(request, ENTREGAS_QUERY)
    result = await execute(
        request, ops.LISTAR_ENTREGAS_ESCUTA, escutaId=request.match_info["escutaId"], **page_variables(params)
    )
    return page(result["entregasEscutaAviso"])


@routes.post(
    "/avisos/escutas/{escutaId}/entregas/{entregaId}/resultado",
    summary="Registra o que o endereço local respondeu a uma entrega encaminhada",
    body=ResultadoEscuta,
    response=fragments.ENTREGA_ESCUTA,
    errors=_ERRORS + ("NOT_FOUND", "VALIDATION_FAILED"),
    description="Só a primeira resposta registrada vale; `status` nulo quando não houve resposta (veja `erro`).",
)
async def registrar_resultado_escuta(request: web.Request) -> web.Response:
    result = await execute(
        request,
        ops.REGISTRAR_RESULTADO_ESCUTA,
        escutaId=request.match_info["escutaId"],
        entregaId=request.match_info["entregaId"],
        dados=entrada(ResultadoEscuta, body(request)),
    )
    return ok(result["registrarResultadoEscuta"])


@routes.post(
    "/avisos/disparos",
    summary="Emite um evento de amostra do tipo pedido, só em teste (vitrine-cli trigger)",
    status=202,
    body=Disparo,
    response=fragments.EVENTO_EMITIDO,
    errors=_ERRORS + ("VALIDATION_FAILED",),
    description="O evento vai às sessões de escuta abertas e aos endereços de teste inscritos no tipo, com o "
    "formato real do evento; os identificadores em `data` são de amostra (não existem na API) e o evento "
    "não conclui nenhuma etapa da integração. Num endereço, é uma entrega de amostra (`amostra: true`): uma "
    "tentativa só, que não conta para a saúde do endereço.",
)
async def disparar_evento(request: web.Request) -> web.Response:
    result = await execute(request, ops.DISPARAR_EVENTO, dados=entrada(Disparo, body(request)))
    return ok(result["dispararEventoAviso"], status=202)
