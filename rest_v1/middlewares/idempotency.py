"""Idempotency-Key, as the contract's table says: required on credit-spending POSTs (and on POST
/recargas, which buys them: RouteSpec.idempotency_required), optional on the other POSTs; same
key + same request -> the stored response with Idempotent-Replayed: true; same key + different
request (method, path, query string or body) -> 409 IDEMPOTENCY_KEY_REUSED; while the first request runs -> 409
IDEMPOTENCY_KEY_IN_PROGRESS. Only successful (2xx) responses are stored: a failed request
created nothing, so repeating it with the same key simply runs it again."""

import hashlib
import json
import re
from urllib.parse import urlencode

from aiohttp import web

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.idempotencia import service as store
from graphql_api.idempotencia.service import Desfecho
from rest_v1.keys import AUTH, CONTEXT, JSON_BODY, METHODS, RAW_BODY, REPLAYED
from rest_v1.routing import RouteSpec, declares

HEADER = "Idempotency-Key"
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_\-:.]{8,120}$")  # also the header's schema in the OpenAPI document
_KEPT_HEADERS = ("Content-Type", "Location")


def _fingerprint(request: web.Request) -> str:
    """The whole request: method, path, query string and body. The query is taken decoded and
    sorted (?a=1&b=2 is ?b=2&a=1, and %65 is e), the body as canonical JSON (key order does not
    count). Without a query string the text is what it was before queries counted, so keys stored
    then still replay."""
    body = request.get(JSON_BODY)
    canonical = (
        json.dumps(body, sort_keys=True, separators=(",", ":"))
        if body is not None
        else (request.get(RAW_BODY) or b"").decode("utf-8", "replace")
    )
    query = urlencode(sorted(request.query.items()))
    target = f"{request.path}?{query}" if query else request.path
    return hashlib.sha256(f"{request.method} {target}\n{canonical}".encode()).hexdigest()


def _replay(record) -> web.Response:
    headers = dict(record.cabecalhos or {})
    headers["Idempotent-Replayed"] = "true"
    return web.Response(status=record.status, body=record.corpo.encode(), headers=headers)


def applies(spec: RouteSpec) -> bool:
    """Every authenticated POST takes the header (the same test the middleware makes per request)."""
    return spec.method == "POST" and not spec.public


def header_parameter(spec: RouteSpec) -> dict | None:
    """The Idempotency-Key header of the route, as the OpenAPI document declares it."""
    if not applies(spec):
        return None
    return {
        "name": HEADER,
        "in": "header",
        "required": spec.requires_idempotency_key,
        "schema": {"type": "string", "pattern": KEY_PATTERN.pattern},
    }


def _errors_for(spec: RouteSpec) -> tuple[str, ...]:
    if not applies(spec):
        return ()
    required = ("IDEMPOTENCY_KEY_REQUIRED",) if spec.requires_idempotency_key else ()
    return required + ("IDEMPOTENCY_KEY_INVALID", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_KEY_IN_PROGRESS")


@declares(_errors_for)
@web.middleware
async def idempotency_middleware(request: web.Request, handler):
    if request.method != "POST" or request.get(AUTH) is None:
        return await handler(request)
    key = request.headers.get(HEADER)
    if key is None:
        spec = request.app[METHODS].spec_of(request)
        if spec is not None and spec.requires_idempotency_key:
            raise ApiError("IDEMPOTENCY_KEY_REQUIRED")
        return await handler(request)
    if not KEY_PATTERN.fullmatch(key):
        raise ApiError(
            "IDEMPOTENCY_KEY_INVALID",
            fields=[FieldError(HEADER, "formato_invalido", "De 8 a 120 caracteres: letras, dígitos, _ - : .")],
        )
    principal = request[AUTH].principal
    assert principal.integrador_id is not None  # every REST credential belongs to an integrator
    key = store.chave_do_chamador(principal, key)
    reserva = await store.reservar(principal.integrador_id, principal.ambiente.value, key, _fingerprint(request))
    if reserva.desfecho is Desfecho.REPETIR:
        request[REPLAYED] = True
        return _replay(reserva.registro)
    if reserva.desfecho is Desfecho.OUTRO_PEDIDO:
        raise ApiError("IDEMPOTENCY_KEY_REUSED")
    if reserva.desfecho is Desfecho.EM_ANDAMENTO:
        raise ApiError("IDEMPOTENCY_KEY_IN_PROGRESS", headers={"Retry-After": "1"})
    record = reserva.registro
    assert record is not None  # a RESERVADA key always carries its new record
    request[CONTEXT].idempotency_key = key
    try:
        response = await handler(request)
    except BaseException:
        await store.liberar(record)
        raise
    if 200 <= response.status < 300 and isinstance(response, web.Response) and response.body is not None:
        headers = {h: response.headers[h] for h in _KEPT_HEADERS if h in response.headers}
        await store.concluir(record, response.status, headers, response.body.decode())
    else:
        await store.liberar(record)
    return response
