"""Typed keys of what the facade keeps on the aiohttp application and on each request."""

from aiohttp import web

from vitrine.runtime import Runtime

RUNTIME = web.AppKey("runtime", Runtime)

# request["..."] keys, set by the middleware named beside each
REQUEST_ID = "request_id"  # request_id
STARTED = "started"  # request_id: perf_counter at arrival
AUTH = "auth"  # auth: graphql_api.chave.service.Authenticated
CONTEXT = "context"  # auth: the GraphQL Context of this request
CALL_TENANT = "call_tenant"  # auth: (integrador_id, ambiente, chave_id) even when auth failed
RATE_DECISION = "rate_decision"  # rate_limit
RAW_BODY = "raw_body"  # body
JSON_BODY = "json"  # body
API_ERROR = "api_error"  # errors (and idempotency): the ApiError answered
REPLAYED = "replayed"  # idempotency
CONTA_ID = "conta_id"  # handlers: the account a call was about, for the call log
