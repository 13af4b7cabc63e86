"""What a route allows the credential, decided at the route before the body is read: an OAuth
token on an integrator-only route (OAuth rule 5) or without the route's scope gets 403 FORBIDDEN,
never a 422 about a body it may not send. The schema checks the same rules again
(graphql_api/core/permissions.py `requires`), so every door is equally safe; this one answers
first. API keys hold every scope and pass.

A missing scope also says it the RFC 6750 way (§3.1): `WWW-Authenticate: Bearer realm="Vitrine",
error="insufficient_scope", scope="<the route's scope>"`. An integrator-only route gets no such
header: no scope a seller grants opens it."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.core.permissions import exigir_escopo, exigir_integrador
from rest_v1.keys import AUTH, METHODS
from rest_v1.middlewares.auth import bearer_challenge
from rest_v1.routing import RouteSpec, declares


def _errors_for(spec: RouteSpec) -> tuple[str, ...]:
    return ("FORBIDDEN",) if spec.integrator_only or spec.scope is not None else ()


@declares(_errors_for)
@web.middleware
async def access_middleware(request: web.Request, handler):
    auth = request.get(AUTH)
    spec = request.app[METHODS].spec_of(request) if auth is not None else None
    if auth is not None and spec is not None:
        if spec.integrator_only:  # first: no scope the seller grants opens these
            exigir_integrador(auth.principal)
        if spec.scope is not None:
            try:
                exigir_escopo(auth.principal, spec.scope)
            except ApiError as refused:
                refused.headers["WWW-Authenticate"] = bearer_challenge("insufficient_scope", scope=spec.scope)
                raise
    return await handler(request)
