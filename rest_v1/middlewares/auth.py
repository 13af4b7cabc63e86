"""Authentication at the edge: the Bearer credential becomes one Principal in a GraphQL
Context. Missing, invalid or revoked -> 401 UNAUTHORIZED; paused integrator -> 403."""

from aiohttp import web

from graphql_api.chave import service as chaves
from graphql_api.core.context import Context
from graphql_api.core.errors import ApiError
from rest_v1.keys import AUTH, CALL_TENANT, CONTEXT, REQUEST_ID, RUNTIME
from rest_v1.routing import endpoint_template

PUBLIC_ENDPOINTS = frozenset({"/openapi.json"})


def bearer_token(request: web.Request) -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(
            "UNAUTHORIZED",
            description="Envie o cabeçalho Authorization: Bearer <chave de API ou token OAuth>.",
        )
    return token.strip()


@web.middleware
async def auth_middleware(request: web.Request, handler):
    if endpoint_template(request) in PUBLIC_ENDPOINTS:
        return await handler(request)
    runtime = request.app[RUNTIME]
    token = bearer_token(request)
    if not token.startswith("sk_"):
        raise ApiError("UNAUTHORIZED", description="Credencial não reconhecida: use uma chave sk_test_/sk_live_ ou um token OAuth.")
    try:
        auth = await chaves.authenticate(token, runtime.keys, default_limits=runtime.default_limits)
    except ApiError:
        # Still log the refused call for the integrator the key names, to help it debug.
        parts = chaves.split_key(token)
        integrador_id = await chaves.identify(token, runtime.keys)
        if integrador_id is not None and parts is not None:
            request[CALL_TENANT] = (integrador_id, parts[0].value, parts[1], "api_key")
        raise
    principal = auth.principal
    request[AUTH] = auth
    request[CALL_TENANT] = (principal.integrador_id, principal.ambiente.value, principal.chave_id, principal.kind.value)
    request[CONTEXT] = Context(runtime=runtime, principal=principal, request_id=request[REQUEST_ID])
    return await handler(request)
