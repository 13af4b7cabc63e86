"""Calls the HTTP parser refused before any middleware could see them (a URL or header too long,
an unknown method, a bad Content-Length: vitrine/http_server.py answers them with the catalog's
envelope). When the head, read as far as it goes, is a /v1 call with a valid credential, the call
goes to that integrator's call log like any other, so the integrator can see what its client sent."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from aiohttp import web
from multidict import CIMultiDict

from graphql_api.chamada.writer import CallRecord
from graphql_api.core.errors import ApiError
from rest_v1.app import METHOD_TABLE
from rest_v1.middlewares.auth import valid_tenant
from rest_v1.routing import API_PREFIX

if TYPE_CHECKING:
    from vitrine.runtime import Runtime


async def record(
    runtime: Runtime,
    *,
    request_id: str,
    method: str,
    target: str,
    headers: CIMultiDict[str],
    error: ApiError,
    response: web.Response,
    started: float,
) -> None:
    """Add the refused call to its integrator's call log, if the head names one validly."""
    path = target.partition("?")[0]
    if path != API_PREFIX and not path.startswith(API_PREFIX + "/"):
        return
    tenant = await valid_tenant(headers.get("Authorization", ""), runtime)
    if tenant is None:
        return
    path = path.removeprefix(API_PREFIX) or "/"
    elapsed = time.perf_counter() - started
    body = response.body
    runtime.call_log.add(
        CallRecord(
            id=request_id,
            integrador_id=tenant.integrador_id,
            ambiente=tenant.ambiente,
            credencial=tenant.credencial,
            chave_id=tenant.chave_id,
            client_id=tenant.client_id,
            conta_id=tenant.conta_id,
            metodo=method[:8],
            endpoint=METHOD_TABLE.template_of(path) or path,
            caminho=target,
            status=response.status,
            duracao_ms=elapsed * 1000,
            codigo_erro=error.type,
            mensagem_erro=error.message or error.kind.message,
            causa_erro=error.description or error.kind.causa,
            replay=False,
            idempotency_key=headers.get("Idempotency-Key"),
            authorization=headers.get("Authorization"),
            content_type=headers.get("Content-Type"),
            request_body=None,  # never read
            response_body=bytes(body) if isinstance(body, (bytes, bytearray)) else None,
            criado_em=datetime.now(UTC) - timedelta(seconds=elapsed),
        )
    )
