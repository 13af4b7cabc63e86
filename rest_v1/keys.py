"""Typed keys of what the facade keeps on the aiohttp application and on each request (the runtime
is the composition root's: vitrine/keys.py)."""

from typing import NamedTuple

from aiohttp import web

from graphql_api.chave.service import Autenticacao
from graphql_api.core.context import Context
from graphql_api.core.errors import ApiError
from rest_v1.routing import MethodTable
from vitrine.infra.ratelimit import Decision


class CallTenant(NamedTuple):
    """Whose call log a call goes to, and with which credential it was made."""

    integrador_id: str
    ambiente: str
    credencial: str  # api_key | oauth
    chave_id: str | None = None  # an API key's identifier
    client_id: str | None = None  # an OAuth token's app
    conta_id: str | None = None  # an OAuth token's linked account


METHODS = web.AppKey("methods", MethodTable)  # the methods each path allows (the Allow of a 405)

# What each request carries, set by the middleware named beside each.
REQUEST_ID = web.RequestKey("request_id", str)  # request_id
CORS_ORIGIN = web.RequestKey("cors_origin", str)  # cors: the Origin allowed to read the answer
STARTED = web.RequestKey("started", float)  # request_id: perf_counter at arrival
AUTH = web.RequestKey("auth", Autenticacao)  # auth
CONTEXT = web.RequestKey("context", Context)  # auth: the GraphQL Context of this request
# auth: set even when authentication failed, if the credential names its integrator
CALL_TENANT = web.RequestKey("call_tenant", CallTenant)
RATE_DECISION = web.RequestKey("rate_decision", Decision)  # rate_limit
RAW_BODY = web.RequestKey("raw_body", bytes)  # body
JSON_BODY = web.RequestKey("json", dict)  # body
API_ERROR = web.RequestKey("api_error", ApiError)  # errors (and idempotency): the error answered
REPLAYED = web.RequestKey("replayed", bool)  # idempotency
CONTA_ID = web.RequestKey("conta_id", str)  # handlers: the account a call was about, for the log
