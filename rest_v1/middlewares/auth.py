"""Authentication at the edge: the Bearer credential becomes one Principal in a GraphQL
Context. Missing, invalid or revoked -> 401 UNAUTHORIZED; paused integrator -> 403.

Every 401 also says it the RFC 6750 way (§3), for clients that read headers rather than bodies:
`WWW-Authenticate: Bearer realm="Vitrine"`, plus `error="invalid_token"` and an ASCII
`error_description` when a Bearer credential was sent (an API key is a Bearer credential too: same
header). A request with no Bearer credential at all gets no error code, as §3.1 asks.

Refused credentials count against the client's IP address (a per-minute limit of their own), so
a 401 carries X-RateLimit-* like every other answer and guessing keys soon meets a 429. Only
failures count: a valid key is never slowed down by others failing from the same address."""

import unicodedata

from aiohttp import web

from graphql_api.chave import service as chaves
from graphql_api.core.context import Context
from graphql_api.core.errors import ApiError
from graphql_api.core.principal import CredentialKind
from graphql_api.oauth import tokens as oauth_tokens
from rest_v1.keys import AUTH, CALL_TENANT, CONTEXT, RATE_DECISION, REQUEST_ID, CallTenant
from rest_v1.routing import RouteSpec, declares, endpoint_template
from vitrine.keys import RUNTIME

PUBLIC_ENDPOINTS = frozenset({"/openapi.json"})
REALM = "Vitrine"


def _quoted(text: str) -> str:
    """A value of a WWW-Authenticate attribute: RFC 6750 allows printable ASCII without '"' and
    '\\' (accents dropped, "…" spelled "...")."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(c for c in plain if " " <= c <= "~" and c not in '"\\')


def bearer_challenge(error: str | None = None, **attributes: str) -> str:
    """The WWW-Authenticate value of a refusal (RFC 6750 §3)."""
    parts = [f'realm="{REALM}"']
    if error is not None:
        parts.append(f'error="{error}"')
    parts += [f'{name}="{_quoted(value)}"' for name, value in attributes.items()]
    return "Bearer " + ", ".join(parts)


def _challenge(request: web.Request, refused: ApiError) -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return bearer_challenge()  # no Bearer credential was sent: no error code
    return bearer_challenge("invalid_token", error_description=refused.description or refused.kind.causa)


def bearer_token(request: web.Request) -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(
            "UNAUTHORIZED",
            description="Envie o cabeçalho Authorization: Bearer <chave de API ou token OAuth>.",
        )
    return token.strip()


def _errors_for(spec: RouteSpec) -> tuple[str, ...]:
    # TOO_MANY_REQUESTS: refused credentials from one address past their limit.
    return () if spec.public else ("UNAUTHORIZED", "INTEGRATOR_PAUSED", "FORBIDDEN", "TOO_MANY_REQUESTS")


@declares(_errors_for)
@web.middleware
async def auth_middleware(request: web.Request, handler):
    if endpoint_template(request) in PUBLIC_ENDPOINTS:
        return await handler(request)
    runtime = request.app[RUNTIME]
    try:
        auth = await _authenticate(request, runtime)
    except ApiError as refused:
        if refused.type == "UNAUTHORIZED":
            refused.headers["WWW-Authenticate"] = _challenge(request, refused)
            await _count_refusal(request, runtime)
        raise
    principal = auth.principal
    request[AUTH] = auth
    request[CALL_TENANT] = _tenant(principal)
    request[CONTEXT] = Context(runtime=runtime, principal=principal, request_id=request[REQUEST_ID])
    return await handler(request)


def _tenant(principal) -> CallTenant:
    return CallTenant(
        principal.integrador_exigido,
        principal.ambiente.value,
        principal.kind.value,
        chave_id=principal.chave_id,
        client_id=principal.client_id,
        conta_id=principal.conta_id,
    )


async def valid_tenant(authorization: str, runtime) -> CallTenant | None:
    """The integrator of a valid credential in this Authorization header, whose call log a request
    the HTTP parser refused goes to (rest_v1/unparsed.py); None for any other header."""
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    try:
        auth = await _credential(token, runtime)
    except ApiError:
        return None
    return _tenant(auth.principal)


async def _authenticate(request: web.Request, runtime):
    token = bearer_token(request)
    try:
        return await _credential(token, runtime)
    except ApiError:
        # Still log the refused call for the integrator the credential names, to help it debug.
        tenant = await _refused_tenant(token, runtime)
        if tenant is not None:
            request[CALL_TENANT] = tenant
        raise


async def _credential(token: str, runtime):
    if token.startswith("oat_"):
        return await oauth_tokens.autenticar_token(token, runtime.oauth_tokens, default_limits=runtime.default_limits)
    if not token.startswith("sk_"):
        raise ApiError(
            "UNAUTHORIZED",
            description="Credencial não reconhecida: use uma chave sk_test_/sk_live_ ou um token OAuth.",
        )
    return await chaves.autenticar_chave(token, runtime.keys, default_limits=runtime.default_limits)


async def _refused_tenant(token: str, runtime) -> CallTenant | None:
    """Whose call log a refused call goes to: the integrator of an existing key (wrong secret,
    revoked) or of an existing OAuth token (revoked, expired) with its app and linked account."""
    if token.startswith("oat_"):
        known = await oauth_tokens.identificar(token, runtime.oauth_tokens)
        if known is None:
            return None
        return CallTenant(
            known.integrador_id,
            known.ambiente.value,
            CredentialKind.OAUTH.value,
            client_id=known.client_id,
            conta_id=known.conta_id,
        )
    parts = chaves.split_key(token)
    integrador_id = await chaves.identify(token, runtime.keys)
    if integrador_id is None or parts is None:
        return None
    return CallTenant(integrador_id, parts[0].value, CredentialKind.API_KEY.value, chave_id=parts[1])


async def _count_refusal(request: web.Request, runtime) -> None:
    """Count a 401 against the client's address; past the limit the answer becomes a 429."""
    decision = await runtime.limiter.hit([(f"ip:{request.remote}", runtime.settings.rate_limit_unauthenticated_per_ip)])
    request[RATE_DECISION] = decision
    if not decision.allowed:
        raise ApiError(
            "TOO_MANY_REQUESTS",
            description=f"Muitas chamadas sem credencial válida vindas deste endereço; tente de novo em "
            f"{decision.retry_after} segundos, com uma chave válida.",
            headers={"Retry-After": str(decision.retry_after)},
        )
