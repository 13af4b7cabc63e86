"""The /v1 REST facade: the contract's HTTP rules as middlewares, and thin handlers."""

from aiohttp import web

from rest_v1 import openapi
from rest_v1.handlers import avisos, conferencias, contas, escutas, geracoes, integracao, produtos, recargas, saldo
from rest_v1.keys import METHODS
from rest_v1.middlewares.access import access_middleware
from rest_v1.middlewares.auth import auth_middleware
from rest_v1.middlewares.body import body_middleware
from rest_v1.middlewares.call_log import call_log_middleware
from rest_v1.middlewares.cors import add_cors_headers, cors_middleware
from rest_v1.middlewares.errors import error_middleware
from rest_v1.middlewares.idempotency import idempotency_middleware
from rest_v1.middlewares.methods import method_middleware
from rest_v1.middlewares.rate_limit import add_rate_limit_headers, rate_limit_middleware
from rest_v1.middlewares.request_id import add_request_id_header, request_id_middleware
from rest_v1.routing import MethodTable, Routes
from vitrine.keys import RUNTIME
from vitrine.runtime import Runtime

# Outermost first. CORS answers a browser's preflight before anything else (no credential, no
# call logged). The call log sees the final response, errors included; authentication runs
# before anything reads the body, and so does the route's access rule (integrator-only routes,
# scopes), counted and answered with X-RateLimit-* like any call; idempotency sees the parsed body.
MIDDLEWARES = (
    request_id_middleware,
    cors_middleware,
    call_log_middleware,
    error_middleware,
    auth_middleware,
    method_middleware,
    rate_limit_middleware,
    access_middleware,
    body_middleware,
    idempotency_middleware,
)

# Every handler module of the facade; each declares its routes (rest_v1/routing.py).
ROUTE_MODULES: tuple[Routes, ...] = (
    openapi.routes,
    saldo.routes,
    contas.routes,
    produtos.routes,
    conferencias.routes,
    geracoes.routes,
    integracao.routes,
    avisos.routes,
    escutas.routes,
    recargas.routes,
)


# The methods each declared path allows (the Allow of a 405, the template of a logged call).
METHOD_TABLE = MethodTable(spec for routes in ROUTE_MODULES for spec in routes.specs)


def create_v1_app(runtime: Runtime) -> web.Application:
    app = web.Application(middlewares=MIDDLEWARES)
    app[RUNTIME] = runtime
    app[METHODS] = METHOD_TABLE
    app.on_response_prepare.append(add_request_id_header)
    app.on_response_prepare.append(add_rate_limit_headers)
    app.on_response_prepare.append(add_cors_headers)
    escutas.setup(app)
    for routes in ROUTE_MODULES:
        app.add_routes(routes.aiohttp_routes())
    return app
