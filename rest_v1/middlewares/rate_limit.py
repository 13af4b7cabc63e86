"""Per-minute limits per credential and per integrator, with X-RateLimit-* on every response
and 429 TOO_MANY_REQUESTS + Retry-After past the limit (the request is not processed).
`X-Vitrine-Teste: forcar-429` forces a 429 with Retry-After: 5 for test keys only."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.core.principal import Ambiente
from rest_v1.keys import AUTH, RATE_DECISION
from rest_v1.routing import declares
from vitrine.keys import RUNTIME

FORCE_HEADER = "X-Vitrine-Teste"
FORCE_VALUE = "forcar-429"
FORCED_RETRY_AFTER = 5


@declares(lambda spec: () if spec.public else ("TOO_MANY_REQUESTS",))
@web.middleware
async def rate_limit_middleware(request: web.Request, handler):
    auth = request.get(AUTH)
    if auth is None:
        return await handler(request)
    principal = auth.principal
    credential = principal.chave_id or principal.conta_id
    decision = await request.app[RUNTIME].limiter.hit(
        [
            (f"c:{credential}", auth.limits.per_credential),
            (f"i:{principal.integrador_id}", auth.limits.per_integrator),
        ]
    )
    request[RATE_DECISION] = decision
    if not decision.allowed:
        raise ApiError("TOO_MANY_REQUESTS", headers={"Retry-After": str(decision.retry_after)})
    forced = request.headers.get(FORCE_HEADER, "").strip().lower() == FORCE_VALUE
    if forced and principal.ambiente is Ambiente.TESTE:
        raise ApiError(
            "TOO_MANY_REQUESTS",
            description="429 forçado pelo cabeçalho X-Vitrine-Teste: forcar-429 (só vale em teste).",
            headers={"Retry-After": str(FORCED_RETRY_AFTER)},
        )
    return await handler(request)


def rate_limit_headers(request: web.Request) -> dict[str, str]:
    """The X-RateLimit-* of this call (none when it was not counted: no credential)."""
    decision = request.get(RATE_DECISION)
    if decision is None:
        return {}
    return {
        "X-RateLimit-Limit": str(decision.limit),
        "X-RateLimit-Remaining": str(decision.remaining),
        "X-RateLimit-Reset": str(decision.reset),
    }


async def add_rate_limit_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(rate_limit_headers(request))
