"""The time a request body has to arrive (VITRINE_BODY_READ_TIMEOUT_SECONDS, docs/limites.md
"Conexões"), for every door of the web process: `body_deadline`, a middleware of the root
application, arms a timer when the headers are in; if the body is still incomplete when it fires,
whoever waits for the body meets BodyReadTimeout. A door answers that with its own 408 (the facade
and the payment confirmation: REQUEST_TIMEOUT; the OAuth endpoints: their RFC 6749 body); one
that does not gets the catalog's 408 from here. Either way the connection then closes: the rest
of that body is never read.

A client that hangs up while its body arrives is not the service's error either: reading the body
raises a ConnectionError, which the doors record as CLIENT_CLOSED_REQUEST (499), never a 500."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from aiohttp import web

from graphql_api.core.errors import ApiError
from vitrine.keys import RUNTIME


class BodyReadTimeout(TimeoutError):
    """The request body did not arrive whole in time. A TimeoutError, so aiohttp's lingering read
    of an unread body after the answer ends quietly and the connection closes."""


def request_timeout(request: web.Request) -> ApiError:
    """The catalog's 408 for this request (the body read raised BodyReadTimeout)."""
    seconds = request.app[RUNTIME].settings.body_read_timeout_seconds
    return ApiError(
        "REQUEST_TIMEOUT",
        description=f"O corpo não chegou inteiro em {seconds:g} segundos depois dos cabeçalhos; a conexão foi fechada.",
    )


@web.middleware
async def body_deadline(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]):
    """Every door's body read is bounded from the moment the headers arrived. A body that came
    with its headers (or no body at all) costs nothing here."""
    payload = request.content
    if payload.is_eof():
        return await handler(request)
    expired = False

    def expire() -> None:
        nonlocal expired
        if not payload.is_eof():
            expired = True
            payload.set_exception(BodyReadTimeout())

    timer = asyncio.get_running_loop().call_later(request.app[RUNTIME].settings.body_read_timeout_seconds, expire)
    response: web.StreamResponse
    try:
        response = await handler(request)
    except BodyReadTimeout:  # a door that does not answer it itself (portal forms, staff GraphQL)
        error = request_timeout(request)
        response = web.json_response(error.body(request.app[RUNTIME].settings.docs_url), status=error.status)
    finally:
        timer.cancel()
    if expired:
        response.force_close()  # the rest of the body will not come: no other request on this connection
    return response
