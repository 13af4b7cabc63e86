"""CORS for the pages of public apps (docs/oauth.md, "Apps no navegador"): a page at the origin of
an active public app's redirect URI may call /v1 with `fetch` and read the answers; any other
origin gets no Access-Control-Allow-Origin, so the browser keeps the answer from it. Which origins
is the OAuth domain's rule (graphql_api/oauth/origens.py, cached in the runtime).

A preflight is answered here, before authentication (a browser sends it without the
Authorization header) and outside the call log: it is the browser asking, not an integrator's
call. A call without Origin (a server's) costs nothing here but the Vary header."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.core.validation import tem_controle
from graphql_api.oauth import origens
from rest_v1.keys import CORS_ORIGIN
from rest_v1.middlewares.rate_limit import FORCE_HEADER
from rest_v1.responses import error_response
from vitrine.infra.cors import CorsPolicy, is_preflight
from vitrine.keys import RUNTIME

POLICY = CorsPolicy(
    methods=("GET", "POST", "PUT", "DELETE"),  # every method a /v1 route declares (rest_v1/routing.py)
    request_headers=("Authorization", "Content-Type", "Idempotency-Key", FORCE_HEADER),
    exposed_headers=(
        "X-Request-Id",
        "Retry-After",
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "Idempotent-Replayed",
        "Location",
        "WWW-Authenticate",  # a refused token's RFC 6750 challenge (middlewares/auth.py)
    ),
)


def _shown(origin: str) -> str:
    return origin[:100] if not tem_controle(origin) else "?"


@web.middleware
async def cors_middleware(request: web.Request, handler):
    origin = request.headers.get("Origin")
    if origin is not None and await origens.permitida(origin, request.app[RUNTIME].oauth_origens):
        request[CORS_ORIGIN] = origin
    if not is_preflight(request):
        return await handler(request)
    if CORS_ORIGIN not in request:
        refused = ApiError(
            "CORS_ORIGIN_NOT_ALLOWED",
            description=f"A origem {_shown(origin or '')} não é a de nenhum endereço de retorno de um app "
            "público ativo.",
        )
        return error_response(request, refused)
    return web.Response(status=204, headers=POLICY.preflight_headers(request[CORS_ORIGIN]))


async def add_cors_headers(request: web.Request, response: web.StreamResponse) -> None:
    POLICY.apply(response, request.get(CORS_ORIGIN))
