"""POST /pagamentos/confirmacao: a payment provider's signed confirmation of a purchase (outside
/v1: the provider is not an integrator and holds no API key).

This door serves it because it is the JSON API of the API host, with the error catalog's
envelope; it is mounted on the root application, beside /v1, so none of /v1's middlewares (API
key, call log, the integrator's rate limits) apply. Like the OAuth token endpoint, the signature
is the caller's credential and the confirmation the whole operation: the handler calls the
domain (graphql_api/recarga/service.receber_do_provedor), which verifies the Standard Webhooks
signature and applies the confirmation exactly once under its webhook-id.

Answers: 200 with the purchase's situacao (also for a confirmation already applied: a provider
may send again until it sees a 2xx), 401 PAYMENT_SIGNATURE_INVALID, 400 PAYMENT_TIMESTAMP_INVALID,
408 REQUEST_TIMEOUT (a body that stopped arriving: vitrine/request_body.py),
404 unknown purchase, 409 PURCHASE_CLOSED when it contradicts how the purchase ended (paid after
it expired: refund it). Every malformed confirmation (signature, timestamp, webhook-id, body) is a
4xx of the catalog and counts against the caller's address like refused keys: junk from one
address soon meets a 429."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.core.ids import new_id
from graphql_api.recarga import service
from rest_v1.responses import error_response, ok
from vitrine.keys import RUNTIME
from vitrine.request_body import BodyReadTimeout, request_timeout

log = logging.getLogger("vitrine.api")

PATH = "/pagamentos/confirmacao"


# The answers to a well-formed, correctly signed confirmation: the provider's word about a purchase,
# which the domain turned down. Any other refusal is of a malformed message, and counts.
_DECIDIDAS = frozenset({"NOT_FOUND", "PAYMENT_NOT_ALLOWED", "PURCHASE_CLOSED", "PAYMENT_CONFIRMATION_REUSED"})


async def _count_refusal(request: web.Request) -> None:
    """Past the per-address limit of refused credentials, a malformed confirmation becomes a 429."""
    runtime = request.app[RUNTIME]
    decision = await runtime.limiter.hit(
        [(f"pagamento:ip:{request.remote}", runtime.settings.rate_limit_unauthenticated_per_ip)]
    )
    if not decision.allowed:
        raise ApiError(
            "TOO_MANY_REQUESTS",
            description=f"Muitas confirmações recusadas (assinatura, horário ou corpo inválidos) vindas deste "
            f"endereço; tente de novo em {decision.retry_after} segundos, com confirmações bem formadas e "
            "assinadas com o segredo certo.",
            headers={"Retry-After": str(decision.retry_after)},
        )


async def _confirmar(request: web.Request) -> web.Response:
    settings = request.app[RUNTIME].settings
    try:
        try:
            corpo = await request.read()
        except web.HTTPRequestEntityTooLarge:
            raise ApiError("PAYLOAD_TOO_LARGE") from None
        except BodyReadTimeout:
            raise request_timeout(request) from None
        except ConnectionError:  # the provider hung up while sending: nobody to answer, not our error
            log.info("the caller of POST %s closed the connection while sending its body", PATH)
            raise ApiError("CLIENT_CLOSED_REQUEST") from None
        desfecho = await service.receber_do_provedor(corpo, request.headers, settings)
    except ApiError as refused:
        if refused.type not in _DECIDIDAS:
            await _count_refusal(request)
        raise
    recarga = desfecho.exigir_coerente()
    return ok(
        {
            "recargaId": recarga.id,
            "situacao": recarga.situacao,
            "aplicada": desfecho.aplicada,
            "repetida": desfecho.repetida,
        }
    )


async def confirmacao(request: web.Request) -> web.Response:
    request_id = new_id("req_")
    try:
        response = await _confirmar(request)
    except ApiError as error:
        response = error_response(request, error)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("unhandled error on POST %s (%s)", PATH, request_id)
        response = error_response(request, ApiError("INTERNAL_ERROR"))
    response.headers["X-Request-Id"] = request_id
    return response


def add_routes(app: web.Application) -> None:
    app.router.add_route("POST", PATH, confirmacao)
