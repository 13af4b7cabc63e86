"""POST /oauth/token, POST /oauth/revogar and GET /.well-known/oauth-authorization-server.

The token endpoint is authentication machinery, like the facade's key check: it calls the OAuth
domain's grant functions directly (graphql_api/oauth/tokens.py). Every answer carries
Cache-Control: no-store and Pragma: no-cache; errors are RFC 6749 `{error, error_description}`."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from authlib.oauth2.rfc6749.errors import InvalidRequestError, OAuth2Error
from authlib.oauth2.rfc6749.util import extract_basic_authorization

from graphql_api.core.principal import OAUTH_SCOPES
from graphql_api.oauth import escopos, tokens
from graphql_api.oauth.models import AppOAuth
from vitrine.keys import RUNTIME

log = logging.getLogger(__name__)

NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
FORM = "application/x-www-form-urlencoded"


def _json(status: int, body: dict[str, Any] | None, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response(body if body is not None else {}, status=status, headers=NO_STORE | (headers or {}))


def _erro(erro: OAuth2Error) -> web.Response:
    headers = {k: v for k, v in erro.get_headers() if k.lower() != "content-type"}
    segundos = tokens.retry_after(erro)
    if segundos is not None:
        headers["Retry-After"] = str(segundos)
    return _json(erro.status_code or 400, dict(erro.get_body()), headers)


async def _parametros(request: web.Request) -> dict[str, str]:
    """The request's fields, form-encoded or JSON. A repeated field is invalid_request (RFC 6749 §3.2)."""
    if request.content_type == "application/json":
        try:
            corpo = json.loads(await request.read() or b"{}")
        except ValueError:
            raise InvalidRequestError(description="Corpo JSON invalido.") from None
        if not isinstance(corpo, dict) or not all(isinstance(v, str) for v in corpo.values()):
            raise InvalidRequestError(description="O corpo JSON deve ser um objeto de textos.")
        return {k: v for k, v in corpo.items() if v != ""}
    if request.content_type != FORM:
        raise InvalidRequestError(description=f"Envie o corpo como {FORM} (ou application/json).")
    campos = await request.post()
    repetidos = sorted({k for k in campos if len(campos.getall(k)) > 1})
    if repetidos:
        raise InvalidRequestError(description=f"Parametro repetido: {repetidos[0][:40]}.")
    return {k: v for k, v in campos.items() if isinstance(v, str) and v != ""}


def _credenciais(request: web.Request, parametros: dict[str, str]) -> tokens.Credenciais:
    """HTTP Basic (client_secret_basic) or body fields (client_secret_post, or a public app's
    client_id alone), never both at once."""
    if "Authorization" not in request.headers:
        return tokens.Credenciais(parametros.get("client_id"), parametros.get("client_secret"))
    client_id, secret = extract_basic_authorization(request.headers)
    if client_id is None:
        raise InvalidRequestError(description="Authorization deve ser HTTP Basic com client_id:client_secret.")
    if "client_secret" in parametros:
        raise InvalidRequestError(
            description="Envie as credenciais do cliente em HTTP Basic ou no corpo, nunca nos dois."
        )
    if parametros.get("client_id", client_id) != client_id:
        raise InvalidRequestError(description="client_id do corpo difere do enviado em HTTP Basic.")
    return tokens.Credenciais(client_id, secret or None)


Grant = Callable[[web.Request, dict[str, str], AppOAuth], Awaitable[dict[str, Any] | None]]


def _client_endpoint(grant: Grant) -> Callable[[web.Request], Awaitable[web.Response]]:
    """An endpoint an app calls with its credentials: fields read, rate limit, client
    authenticated, then `grant`; every failure answered the OAuth way, never as a bare 500."""

    async def handler(request: web.Request) -> web.Response:
        runtime = request.app[RUNTIME]
        try:
            parametros = await _parametros(request)
            credenciais = _credenciais(request, parametros)
            await tokens.limitar(runtime.limiter, credenciais.client_id, request.remote or "")
            app = await tokens.autenticar_cliente(credenciais)
            return _json(200, await grant(request, parametros, app))
        except OAuth2Error as erro:
            return _erro(erro)
        except Exception:
            log.exception("OAuth endpoint %s failed", request.path)
            return _json(500, {"error": "server_error", "error_description": "Erro interno; tente de novo."})

    return handler


async def _token(request: web.Request, parametros: dict[str, str], app: AppOAuth) -> dict[str, Any]:
    return await tokens.emitir(parametros, app, bus=request.app[RUNTIME].bus)


async def _revogar(request: web.Request, parametros: dict[str, str], app: AppOAuth) -> None:
    """RFC 7009: 200 for any token, known or not, once the client is authenticated."""
    valor = parametros.get("token")
    if not valor:
        raise InvalidRequestError(description="Falta o parametro token.")
    await tokens.revogar(valor, app, bus=request.app[RUNTIME].bus)


token = _client_endpoint(_token)
revogar = _client_endpoint(_revogar)


async def metadata(request: web.Request) -> web.Response:
    """RFC 8414: what a standard OAuth client needs to configure itself."""
    settings = request.app[RUNTIME].settings
    base = settings.base_url
    metodos = ["client_secret_basic", "client_secret_post", "none"]
    return web.json_response(
        {
            "issuer": base,
            "authorization_endpoint": f"{base}/oauth/autorizar",
            "token_endpoint": f"{base}/oauth/token",
            "revocation_endpoint": f"{base}/oauth/revogar",
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": list(tokens.GRANTS),
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": metodos,
            "revocation_endpoint_auth_methods_supported": metodos,
            "scopes_supported": escopos.ordenados(OAUTH_SCOPES),
            "authorization_response_iss_parameter_supported": True,
            "service_documentation": f"{settings.docs_url}/oauth",
        },
        headers={"Cache-Control": "public, max-age=3600"},
    )


def add_routes(app: web.Application) -> None:
    app.router.add_post("/oauth/token", token)
    app.router.add_post("/oauth/revogar", revogar)
    app.router.add_get("/.well-known/oauth-authorization-server", metadata)
