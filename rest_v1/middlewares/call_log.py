"""Records every call in the call log. The record is masked and encoded as the writer takes it;
the database insert happens in the writer's background task."""

import time
from datetime import UTC, datetime, timedelta

from aiohttp import web

from graphql_api.chamada.writer import CallRecord
from rest_v1.keys import (
    API_ERROR,
    CALL_TENANT,
    CONTA_ID,
    METHODS,
    RAW_BODY,
    REPLAYED,
    REQUEST_ID,
    STARTED,
    CallTenant,
)
from rest_v1.middlewares.rate_limit import rate_limit_headers
from rest_v1.routing import endpoint_template
from vitrine.keys import RUNTIME


def _conta_id(request: web.Request, tenant: CallTenant) -> str | None:
    # An OAuth token acts on its linked account only: that is the account of every call it makes.
    return tenant.conta_id or request.get(CONTA_ID) or request.match_info.get("contaId")


@web.middleware
async def call_log_middleware(request: web.Request, handler):
    response = await handler(request)
    tenant = request.get(CALL_TENANT)
    if tenant is None:  # no integrator to show it to
        return response
    error = request.get(API_ERROR)
    elapsed = time.perf_counter() - request[STARTED]
    retry_after = response.headers.get("Retry-After")
    request.app[RUNTIME].call_log.add(
        CallRecord(
            id=request[REQUEST_ID],
            integrador_id=tenant.integrador_id,
            ambiente=tenant.ambiente,
            credencial=tenant.credencial,
            chave_id=tenant.chave_id,
            client_id=tenant.client_id,
            conta_id=_conta_id(request, tenant),
            metodo=request.method,
            endpoint=endpoint_template(request),
            caminho=request.path_qs,
            status=response.status,
            duracao_ms=elapsed * 1000,
            codigo_erro=error.type if error else None,
            mensagem_erro=(error.message or error.kind.message) if error else None,
            causa_erro=(error.description or error.kind.causa) if error else None,
            replay=bool(request.get(REPLAYED)),
            idempotency_key=request.headers.get("Idempotency-Key"),
            authorization=request.headers.get("Authorization"),
            content_type=request.headers.get("Content-Type"),
            request_body=request.get(RAW_BODY),
            response_body=_body(response),
            criado_em=datetime.now(UTC) - timedelta(seconds=elapsed),
            retry_after=int(retry_after) if retry_after and retry_after.isdigit() else None,
            tipo=spec.call_kind if (spec := request.app[METHODS].spec_of(request)) is not None else None,
            cabecalhos_resposta=_response_headers(request, response),
        )
    )
    return response


# Response headers an integrator debugs with, besides the rate limit's (added when the response is
# prepared, after this middleware: taken from the request's decision instead).
KEPT_RESPONSE_HEADERS = ("Retry-After", "Idempotent-Replayed", "Location")


def _response_headers(request: web.Request, response: web.StreamResponse) -> dict[str, str] | None:
    headers = rate_limit_headers(request)
    for name in KEPT_RESPONSE_HEADERS:
        value = response.headers.get(name)
        if value is not None:
            headers[name] = value
    return headers or None


def _body(response: web.StreamResponse) -> bytes | None:
    """The bytes a Response answered; a streamed or Payload body is not kept in memory to log."""
    body = response.body if isinstance(response, web.Response) else None
    return bytes(body) if isinstance(body, (bytes, bytearray)) else None
