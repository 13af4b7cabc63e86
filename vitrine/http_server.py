"""The web process's HTTP server: aiohttp's, with the bounds a service open to the internet needs
at the connection (docs/limites.md, "Conexões"; docs/desenvolvimento.md, "A borda HTTP"). The
time a body has to arrive is vitrine/request_body.py's; here:

- One source address holds at most VITRINE_MAX_CONNECTIONS_PER_ADDRESS connections at once
  (`Server`); the next is answered a canned 429 TOO_MANY_CONNECTIONS, unread, and closed.
- A request aiohttp's parser refuses (a bad request line, method or Content-Length, a line too
  long, too many headers) gets the catalog's error envelope instead of aiohttp's plain-text echo
  of the bytes (`Protocol`), logged at INFO without a traceback; a /v1 call whose head still
  names a credential of an integrator goes to its call log (rest_v1/unparsed.py).

aiohttp has no hook for either: its Server and its protocol (RequestHandler) are subclassed here,
and `Runner` builds them, for `serve` and for the tests' server alike. That leans on aiohttp's
internals (RequestHandler._make_error_handler, Server._kwargs), so aiohttp is pinned to its minor
version (pyproject.toml)."""

from __future__ import annotations

import asyncio
import logging
import re
import signal
import time
from collections import Counter
from contextlib import suppress
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import BadHttpMethod, LineTooLong
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest
from multidict import CIMultiDict

from graphql_api.core.errors import ApiError
from graphql_api.core.ids import new_id
from rest_v1 import unparsed
from rest_v1.responses import json_body
from vitrine.keys import RUNTIME
from vitrine.runtime import Runtime

log = logging.getLogger("vitrine.http")

# aiohttp's parser limits (RequestHandler's defaults), quoted by the catalog's texts.
MAX_LINE_SIZE = 8190
# What a refused request's head is read from: the bytes received since the last answer, up to this.
HEAD_CAPTURE = 64 * 1024
# A refused connection is given this long to read its 429 before it is closed.
REFUSED_LINGER_SECONDS = 2.0


_REQUEST_LINE_END = re.compile(rb"\r?\n")


def _error_response(error: ApiError, runtime: Runtime, request_id: str) -> web.Response:
    return web.Response(
        body=json_body(error.body(runtime.settings.docs_url)),
        status=error.status,
        headers=error.headers | {"X-Request-Id": request_id},
        content_type="application/json",
        charset="utf-8",
    )


def _lenient_head(raw: bytes) -> tuple[str, str, CIMultiDict[str]]:
    """(method, target, headers) of bytes the parser refused, read as far as they go."""
    head = raw.split(b"\r\n\r\n", 1)[0]
    lines = head.split(b"\r\n")
    method, _, rest = lines[0].partition(b" ")
    target = rest.rpartition(b" HTTP/")[0] if b" HTTP/" in rest else rest
    headers: CIMultiDict[str] = CIMultiDict()
    for line in lines[1:]:
        name, colon, value = line.partition(b":")
        if colon and name.strip():
            headers.add(name.strip().decode("latin-1"), value.strip().decode("latin-1"))
    return method.decode("latin-1"), target.decode("latin-1"), headers


def _refusal(exc: BaseException | None, raw: bytes) -> ApiError:
    """The catalog's answer to a request the parser refused, in words a person understands (the
    parser's own message quotes library internals and echoes the bytes)."""
    if isinstance(exc, LineTooLong):
        if not _REQUEST_LINE_END.search(raw[: MAX_LINE_SIZE + 2]):
            return ApiError("URI_TOO_LONG")
        return ApiError("HEADERS_TOO_LARGE")
    text = str(exc) if exc is not None else ""
    if "Too many headers" in text:
        return ApiError("HEADERS_TOO_LARGE")
    if isinstance(exc, BadHttpMethod):
        if raw.startswith(b"\x16\x03"):
            return ApiError(
                "BAD_REQUEST",
                description="Chegou tráfego HTTPS (TLS) numa porta HTTP: use o endereço http:// desta porta, ou a "
                "porta https:// do serviço.",
            )
        return ApiError("BAD_REQUEST", description="Método HTTP não reconhecido: a API usa GET, POST, PUT e DELETE.")
    if "Content-Length" in text:
        return ApiError(
            "BAD_REQUEST",
            description="Content-Length inválido: envie um só Content-Length, com o tamanho do corpo em bytes "
            "(dígitos ASCII).",
        )
    if "Transfer-Encoding" in text or "chunk" in text.lower():
        return ApiError(
            "BAD_REQUEST",
            description="Transfer-Encoding inválido: use chunked (sem Content-Length) ou só Content-Length.",
        )
    return ApiError(
        "BAD_REQUEST",
        description="A requisição HTTP está malformada: a linha da requisição, um cabeçalho ou a delimitação "
        "do corpo não segue o HTTP/1.1.",
    )


class Protocol(RequestHandler):
    """aiohttp's protocol, answering what its parser refuses with the catalog's envelope."""

    def __init__(self, manager: Server, *, loop: asyncio.AbstractEventLoop, **kwargs: Any) -> None:
        super().__init__(manager, loop=loop, **kwargs)
        self.runtime = manager.runtime
        self.address: str | None = None  # the peer's host, when it counts in the per-address limit
        self.refused = False
        self._head = bytearray()  # the bytes received since the last answer (HEAD_CAPTURE at most)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return  # a refused connection's request is not read
        room = HEAD_CAPTURE - len(self._head)
        if room > 0:
            self._head += data[:room]
        super().data_received(data)

    async def finish_response(
        self, request: BaseRequest, resp: web.StreamResponse, start_time: float | None
    ) -> tuple[web.StreamResponse, bool]:
        self._head.clear()  # what comes next is the next request's head
        return await super().finish_response(request, resp, start_time)

    def refuse(self, answer: bytes) -> None:
        """Answer `answer` without reading the request, then close: half-close first, so the peer
        reads the answer instead of a reset, and give it REFUSED_LINGER_SECONDS."""
        self.refused = True
        self._force_close = True  # the request loop ends without reading anything
        transport = self.transport
        if transport is None:
            return
        transport.write(answer)
        if transport.can_write_eof():
            transport.write_eof()
        self._loop.call_later(REFUSED_LINGER_SECONDS, transport.close)

    def _make_error_handler(self, err_info):
        async def handler(request: BaseRequest) -> web.StreamResponse:
            return await self._answer_unparsed(request, err_info.exc)

        return handler

    async def _answer_unparsed(self, request: BaseRequest, exc: BaseException | None) -> web.StreamResponse:
        started = time.perf_counter()
        raw = bytes(self._head)
        error = _refusal(exc, raw)
        method, target, headers = _lenient_head(raw)
        log.info(
            "refused an unparsable request from %s (%s %.60s): %s", request.remote, method[:16], target, error.type
        )
        request_id = new_id("req_")
        response = _error_response(error, self.runtime, request_id)
        response.force_close()
        with suppress(Exception):  # the answer goes out whatever the call log makes of it
            await unparsed.record(
                self.runtime,
                request_id=request_id,
                method=method,
                target=target,
                headers=headers,
                error=error,
                response=response,
                started=started,
            )
        return response


class Server(web.Server):
    """aiohttp's low-level server, with a limit of open connections per source address."""

    def __init__(self, *args: Any, runtime: Runtime, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.runtime = runtime
        self.max_per_address = runtime.settings.max_connections_per_address
        self.per_address: Counter[str] = Counter()
        error = ApiError("TOO_MANY_CONNECTIONS", headers={"Retry-After": "1"})
        body = json_body(error.body(runtime.settings.docs_url))
        self.refusal = (
            b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\n"
            b"Retry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        )

    def __call__(self) -> Protocol:
        return Protocol(self, loop=asyncio.get_running_loop(), **self._kwargs)

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        assert isinstance(handler, Protocol)
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) and peer else None
        if address is not None and self.max_per_address:
            if self.per_address[address] >= self.max_per_address:
                log.info("refused a connection from %s: %d already open", address, self.per_address[address])
                handler.refuse(self.refusal)
                return
            self.per_address[address] += 1
            handler.address = address
        super().connection_made(handler, transport)

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        address = getattr(handler, "address", None)
        if address is not None:
            handler.address = None  # type: ignore[attr-defined]
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]
        super().connection_lost(handler, exc)


class Runner(web.AppRunner):
    """aiohttp's AppRunner with this module's Server: `serve` and the tests' server use it."""

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()  # starts the application up, as AppRunner does
        return Server(
            server.request_handler,
            request_factory=server.request_factory,
            handler_cancellation=server.handler_cancellation,
            runtime=self.app[RUNTIME],
            **server._kwargs,
        )


async def _serve(app: web.Application, host: str, port: int, reuse_port: bool) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    # keepalive_timeout: aiohttp's run_app default, shorter than a bare AppRunner's (an hour).
    runner = Runner(app, access_log=None, keepalive_timeout=75.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port, reuse_port=reuse_port).start()
        await stop.wait()
    finally:
        await runner.cleanup()  # in-flight requests end, then the application's clean-up runs


def serve(app: web.Application, host: str, port: int, *, reuse_port: bool = False) -> None:
    """Serve the application until SIGINT or SIGTERM, on uvloop: its event loop in C spends less
    CPU per facade request (docs/decisoes/0003-caminho-quente-da-fachada.md)."""
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as loop_runner:
        loop_runner.run(_serve(app, host, port, reuse_port))
