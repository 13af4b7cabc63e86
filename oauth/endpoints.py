"""POST /oauth/token, POST /oauth/revogar and GET /.well-known/oauth-authorization-server.

The token endpoint is authentication machinery, like the facade's key check: it calls the OAuth
domain's grant functions directly (graphql_api/oauth/tokens.py). Every answer carries
Cache-Control: no-store and Pragma: no-cache; errors are RFC 6749 `{error, error_description}`.

A public app's page in the browser calls these three with `fetch`: CORS lets the origins of
active public apps' redirect URIs read the answers (graphql_api/oauth/origens.py), and a
preflight (OPTIONS) is answered without credentials."""

from __future__ import annotations

import base64
import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl, unquote

from aiohttp import web
from authlib.oauth2.rfc6749.errors import InvalidRequestError, OAuth2Error

from graphql_api.core.principal import OAUTH_SCOPES
from graphql_api.oauth import escopos, origens, tokens
from graphql_api.oauth.autorizacoes import citar
from graphql_api.oauth.models import AppOAuth
from vitrine.infra.cors import CorsPolicy, is_preflight
from vitrine.keys import RUNTIME
from vitrine.request_body import BodyReadTimeout

log = logging.getLogger(__name__)

NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
FORM = "application/x-www-form-urlencoded"
# A page sends a public app's client_id in a form or JSON body; Authorization for completeness
# (HTTP Basic is a confidential app's, which runs on a server).
CORS_CLIENT = CorsPolicy(
    methods=("POST",), request_headers=("Authorization", "Content-Type"), exposed_headers=("Retry-After",)
)
CORS_METADATA = CorsPolicy(methods=("GET",), request_headers=(), exposed_headers=())


def _json(status: int, body: dict[str, Any] | None, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response(body if body is not None else {}, status=status, headers=NO_STORE | (headers or {}))


def _erro(erro: OAuth2Error) -> web.Response:
    headers = {k: v for k, v in erro.get_headers() if k.lower() != "content-type"}
    segundos = tokens.retry_after(erro)
    if segundos is not None:
        headers["Retry-After"] = str(segundos)
    return _json(erro.status_code or 400, dict(erro.get_body()), headers)


async def _corpo(request: web.Request) -> bytes:
    try:
        return await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise InvalidRequestError(description="O corpo passa de 1 MB.", status_code=413) from None
    except web.RequestPayloadError:  # e.g. a Content-Encoding the bytes do not follow
        raise InvalidRequestError(description="Corpo ilegivel: confira o Content-Encoding.") from None
    except BodyReadTimeout:  # vitrine/request_body.py: the body stopped arriving
        raise InvalidRequestError(description="O corpo nao chegou inteiro a tempo.", status_code=408) from None
    except ConnectionError:  # the client hung up while sending: nobody to answer, not our error
        log.info("client closed the connection while sending its body to %s", request.path)
        raise InvalidRequestError(description="A conexao foi fechada antes do fim do corpo.") from None


def _sem_repetidos(nomes: list[str]) -> None:
    """RFC 6749 §3.2: a parameter sent more than once is invalid_request (JSON keys too: a parser
    keeping the last one would see another request than one keeping the first)."""
    contagem = Counter(nomes)
    repetido = next((nome for nome in nomes if contagem[nome] > 1), None)
    if repetido is not None:
        raise InvalidRequestError(description=f"Parametro repetido: {citar(repetido)}.")


def _objeto_json(pares: list[tuple[str, Any]]) -> dict[str, Any]:
    _sem_repetidos([nome for nome, _ in pares])
    return dict(pares)


def _de_json(corpo: bytes) -> dict[str, str]:
    try:
        campos = json.loads(corpo or b"{}", object_pairs_hook=_objeto_json)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested past the parser's stack
        raise InvalidRequestError(description="Corpo JSON invalido.") from None
    if not isinstance(campos, dict) or not all(isinstance(v, str) and _texto(v) for v in campos.values()):
        raise InvalidRequestError(description="O corpo JSON deve ser um objeto de textos.")
    return campos


def _texto(valor: str) -> bool:
    """False for a JSON string that is no text (a lone surrogate, \\ud800): it has no UTF-8 form."""
    try:
        valor.encode()
    except UnicodeEncodeError:
        return False
    return True


def _de_formulario(corpo: bytes, charset: str | None) -> dict[str, str]:
    try:
        texto = corpo.decode(charset or "utf-8")
        pares = parse_qsl(texto, keep_blank_values=True, encoding=charset or "utf-8", errors="replace")
    except LookupError:
        raise InvalidRequestError(description="charset desconhecido no Content-Type; use UTF-8.") from None
    except UnicodeDecodeError:
        raise InvalidRequestError(description="O corpo nao e texto UTF-8.") from None
    _sem_repetidos([nome for nome, _ in pares])
    return dict(pares)


async def _parametros(request: web.Request) -> dict[str, str]:
    """The request's fields, form-encoded or JSON; anything a client could send that is neither
    is invalid_request (413 past 1 MB), never an error of ours."""
    if request.content_type not in (FORM, "application/json"):
        raise InvalidRequestError(description=f"Envie o corpo como {FORM} (ou application/json).")
    corpo = await _corpo(request)
    if request.content_type == FORM:
        campos = _de_formulario(corpo, request.charset)
    else:
        campos = _de_json(corpo)
    return {k: v for k, v in campos.items() if v != ""}


def _basic(header: str) -> tuple[str, str | None]:
    """client_id and client_secret of an HTTP Basic header, each form-urlencoded (RFC 6749 §2.3.1)."""
    esquema, _, valor = header.strip().partition(" ")
    try:
        if esquema.lower() != "basic":
            raise ValueError(esquema)
        texto = base64.b64decode(valor.strip(), validate=True).decode()
    except (ValueError, UnicodeError):  # not Basic, not base64 (binascii.Error), not UTF-8
        raise InvalidRequestError(
            description="Authorization deve ser HTTP Basic com client_id:client_secret."
        ) from None
    client_id, dois_pontos, segredo = texto.partition(":")
    return unquote(client_id), unquote(segredo) if dois_pontos else None


def _credenciais(request: web.Request, parametros: dict[str, str]) -> tokens.Credenciais:
    """HTTP Basic (client_secret_basic) or body fields (client_secret_post, or a public app's
    client_id alone), never both at once."""
    if "Authorization" not in request.headers:
        return tokens.Credenciais(parametros.get("client_id"), parametros.get("client_secret"))
    client_id, secret = _basic(request.headers["Authorization"])
    if "client_secret" in parametros:
        raise InvalidRequestError(
            description="Envie as credenciais do cliente em HTTP Basic ou no corpo, nunca nos dois."
        )
    if parametros.get("client_id", client_id) != client_id:
        raise InvalidRequestError(description="client_id do corpo difere do enviado em HTTP Basic.")
    return tokens.Credenciais(client_id or None, secret or None)


Grant = Callable[[web.Request, dict[str, str], AppOAuth, tokens.Chamador], Awaitable[dict[str, Any] | None]]


def _client_endpoint(grant: Grant) -> Callable[[web.Request], Awaitable[web.Response]]:
    """An endpoint an app calls with its credentials: fields read, client authenticated, then
    `grant`; the limits are the domain's (tokens.Chamador); every failure answered the OAuth way,
    never as a bare 500."""

    async def handler(request: web.Request) -> web.Response:
        runtime = request.app[RUNTIME]
        chamador = tokens.Chamador(
            runtime.limiter, request.remote or "", runtime.settings.rate_limit_unauthenticated_per_ip
        )
        try:
            parametros = await _parametros(request)
            credenciais = _credenciais(request, parametros)
            app = await tokens.autenticar_cliente(credenciais, chamador)
            return _json(200, await grant(request, parametros, app, chamador))
        except OAuth2Error as erro:
            return _erro(await chamador.recusado(erro))
        except Exception:
            log.exception("OAuth endpoint %s failed", request.path)
            return _json(500, {"error": "server_error", "error_description": "Erro interno; tente de novo."})

    return handler


async def _token(
    request: web.Request, parametros: dict[str, str], app: AppOAuth, chamador: tokens.Chamador
) -> dict[str, Any]:
    return await tokens.emitir(parametros, app, chamador, bus=request.app[RUNTIME].bus)


async def _revogar(request: web.Request, parametros: dict[str, str], app: AppOAuth, chamador: tokens.Chamador) -> None:
    """RFC 7009: 200 for any token, known or not, once the client is authenticated."""
    valor = parametros.get("token")
    if not valor:
        raise InvalidRequestError(description="Falta o parametro token.")
    await tokens.revogar(valor, app, chamador, bus=request.app[RUNTIME].bus)


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


async def so_post(request: web.Request) -> web.Response:
    """Any other method: still an OAuth error body, not aiohttp's plain-text 405."""
    erro = InvalidRequestError(description="Este endpoint aceita apenas POST.", status_code=405)
    return _json(405, dict(erro.get_body()), {"Allow": "POST"})


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def _origem_permitida(request: web.Request) -> str | None:
    origem = request.headers.get("Origin")
    return origem if await origens.permitida(origem, request.app[RUNTIME].oauth_origens) else None


def _cors(policy: CorsPolicy, handler: Handler) -> Handler:
    """`handler`'s answers, readable by a page at an allowed origin."""

    async def with_cors(request: web.Request) -> web.StreamResponse:
        response = await handler(request)
        policy.apply(response, await _origem_permitida(request) if "Origin" in request.headers else None)
        return response

    return with_cors


def _preflight(policy: CorsPolicy) -> Handler:
    """OPTIONS: a browser's preflight, answered for an allowed origin; any other OPTIONS is a
    method these endpoints do not serve."""

    async def preflight(request: web.Request) -> web.StreamResponse:
        if not is_preflight(request):
            if "POST" in policy.methods:
                return await so_post(request)
            raise web.HTTPMethodNotAllowed(request.method, policy.methods)
        origem = await _origem_permitida(request)
        if origem is None:
            erro = InvalidRequestError(
                description="Esta origem nao e a de nenhum endereco de retorno de um app publico ativo: "
                "cadastre um endereco de retorno do app na origem da pagina.",
                status_code=403,
            )
            response = _json(403, dict(erro.get_body()))
        else:
            response = web.Response(status=204, headers=policy.preflight_headers(origem))
        policy.apply(response, None)  # Vary: Origin
        return response

    return preflight


def add_routes(app: web.Application) -> None:
    for path, handler in (("/oauth/token", token), ("/oauth/revogar", revogar)):
        resource = app.router.add_resource(path)
        resource.add_route("POST", _cors(CORS_CLIENT, handler))
        resource.add_route("OPTIONS", _preflight(CORS_CLIENT))
        resource.add_route("*", _cors(CORS_CLIENT, so_post))
    resource = app.router.add_resource("/.well-known/oauth-authorization-server")
    resource.add_route("GET", _cors(CORS_METADATA, metadata))
    resource.add_route("HEAD", _cors(CORS_METADATA, metadata))
    resource.add_route("OPTIONS", _preflight(CORS_METADATA))
