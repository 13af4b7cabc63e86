"""OAuth 2.0 with PKCE (S256) for acting on a seller's linked account.

    app = AppOAuth("app_…", "cs_test_…", redirect_uri="https://seu.app/retorno")
    pedido = app.autorizacao(escopos=["produtos:ler", "produtos:escrever", "geracoes:criar"])
    # keep pedido.state and pedido.code_verifier in the user's session; redirect to pedido.url
    codigo = app.ler_retorno(url_de_retorno, state=pedido.state)
    tokens = app.trocar_codigo(codigo, pedido.code_verifier)
    cliente = Vitrine(oauth=app.autenticacao(tokens, ao_renovar=guardar))

`autenticacao(...)` refreshes the access token by itself shortly before it expires and once on a
401, serialised so that two calls never spend the same (rotating) refresh token."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import AsyncGenerator, Callable, Generator, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import httpx

from vitrine_client._nucleo import url_do_servico, user_agent
from vitrine_client.erros import ErroOAuth

# Refresh this long before expires_in runs out, so a call never leaves with a token about to die.
MARGEM_RENOVACAO = 60.0


def gerar_pkce() -> tuple[str, str]:
    """(code_verifier, code_challenge): 86 random characters of A-Z a-z 0-9 - _, and
    BASE64URL(SHA-256(verifier)) without '=' (RFC 7636, S256)."""
    verifier = secrets.token_urlsafe(64)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).rstrip(b"=")
    return verifier, challenge.decode("ascii")


@dataclass(frozen=True)
class PedidoDeAutorizacao:
    """Where to send the seller's browser, and what to keep in the user's session until the
    callback (a new verifier and state per authorisation)."""

    url: str
    state: str
    code_verifier: str
    redirect_uri: str


@dataclass(frozen=True)
class Tokens:
    access_token: str
    refresh_token: str
    expira_em: float  # unix time when access_token stops working
    scope: str
    conta_id: str
    token_type: str = "Bearer"

    @classmethod
    def da_resposta(cls, dados: dict[str, Any], agora: float | None = None) -> Tokens:
        return cls(
            access_token=dados["access_token"],
            refresh_token=dados["refresh_token"],
            expira_em=(agora if agora is not None else time.time()) + float(dados["expires_in"]),
            scope=dados.get("scope", ""),
            conta_id=dados.get("conta_id", ""),
            token_type=dados.get("token_type", "Bearer"),
        )

    def vencendo(self, margem: float = MARGEM_RENOVACAO) -> bool:
        return time.time() >= self.expira_em - margem


class _App:
    """The app's settings and the requests of the token endpoints, shared by both flavours."""

    def __init__(
        self,
        client_id: str,
        client_secret: str | None = None,
        *,
        redirect_uri: str | None = None,
        url: str | None = None,
        emissor: str | None = None,
    ) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.redirect_uri = redirect_uri
        self.url = url_do_servico(url)
        self.emissor = emissor  # checked against the callback's iss (RFC 9207) when given

    def autorizacao(
        self, escopos: Iterable[str] | None = None, *, redirect_uri: str | None = None, state: str | None = None
    ) -> PedidoDeAutorizacao:
        """The consent screen's address, with a new PKCE pair and state. Without escopos the
        request covers every scope the app is allowed."""
        redirect_uri = redirect_uri or self.redirect_uri
        if not redirect_uri:
            raise ValueError("Falta redirect_uri (um dos cadastrados no app).")
        verifier, challenge = gerar_pkce()
        state = state or secrets.token_urlsafe(24)
        parametros = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": redirect_uri,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        if escopos is not None:
            parametros["scope"] = " ".join(escopos)
        url = f"{self.url}/oauth/autorizar?{urlencode(parametros, quote_via=quote)}"
        return PedidoDeAutorizacao(url, state, verifier, redirect_uri)

    def ler_retorno(self, url_de_retorno: str, *, state: str) -> str:
        """The authorisation code of the callback address, after checking its state (and iss
        when `emissor` is set); ErroOAuth for a refusal (access_denied, ...) or a mismatch."""
        consulta = {k: v[0] for k, v in parse_qs(urlsplit(url_de_retorno).query).items()}
        if not hmac.compare_digest(consulta.get("state", ""), state):
            raise ErroOAuth("state_invalido", "O state da volta não é o guardado na sessão: recomece a autorização.")
        if self.emissor is not None and consulta.get("iss", self.emissor) != self.emissor:
            raise ErroOAuth("iss_invalido", f"A volta veio de outro emissor: {consulta.get('iss')}.")
        if "error" in consulta:
            raise ErroOAuth(consulta["error"], consulta.get("error_description") or consulta["error"])
        if "code" not in consulta:
            raise ErroOAuth("invalid_request", "A volta não traz code.")
        return consulta["code"]

    def _pedido(self, caminho: str, campos: dict[str, str]) -> httpx.Request:
        """A token-endpoint request authenticated as the app: HTTP Basic for confidential apps
        (client_id and secret form-encoded, RFC 6749 2.3.1), client_id in the body for public ones."""
        cabecalhos = {"User-Agent": user_agent(), "Accept": "application/json"}
        if self.client_secret:
            credenciais = f"{quote(self.client_id, safe='')}:{quote(self.client_secret, safe='')}"
            cabecalhos["Authorization"] = "Basic " + base64.b64encode(credenciais.encode()).decode()
        else:
            campos = {**campos, "client_id": self.client_id}
        return httpx.Request("POST", f"{self.url}{caminho}", data=campos, headers=cabecalhos)

    def _troca(self, codigo: str, code_verifier: str, redirect_uri: str | None) -> httpx.Request:
        campos = {
            "grant_type": "authorization_code",
            "code": codigo,
            "redirect_uri": redirect_uri or self.redirect_uri or "",
            "code_verifier": code_verifier,
        }
        return self._pedido("/oauth/token", campos)

    def _renovacao(self, refresh_token: str, escopos: Iterable[str] | None = None) -> httpx.Request:
        campos = {"grant_type": "refresh_token", "refresh_token": refresh_token}
        if escopos is not None:
            campos["scope"] = " ".join(escopos)
        return self._pedido("/oauth/token", campos)

    def _revogacao(self, token: str) -> httpx.Request:
        return self._pedido("/oauth/revogar", {"token": token})


def tokens_da_resposta(resposta: httpx.Response) -> Tokens:
    """Tokens of a 200, or the endpoint's `{error, error_description}` as ErroOAuth."""
    try:
        dados = resposta.json()
    except ValueError:
        dados = {}
    if resposta.status_code == 200 and isinstance(dados, dict) and "access_token" in dados:
        return Tokens.da_resposta(dados)
    raise _erro_oauth(resposta, dados)


def _erro_oauth(resposta: httpx.Response, dados: Any) -> ErroOAuth:
    dados = dados if isinstance(dados, dict) else {}
    codigo = str(dados.get("error") or f"http_{resposta.status_code}")
    retry = resposta.headers.get("Retry-After")
    return ErroOAuth(
        codigo,
        str(dados.get("error_description") or codigo),
        status=resposta.status_code,
        retry_after=float(retry) if retry and retry.isdigit() else None,
        corpo=dados,
        cabecalhos=resposta.headers,
    )


def _revogado(resposta: httpx.Response) -> None:
    if resposta.status_code != 200:
        try:
            dados = resposta.json()
        except ValueError:
            dados = {}
        raise _erro_oauth(resposta, dados)


class AppOAuth(_App):
    """An OAuth app (registered in the portal), synchronous."""

    def __init__(self, *args: Any, http: httpx.Client | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._http = http or httpx.Client(timeout=30.0)

    def trocar_codigo(self, codigo: str, code_verifier: str, *, redirect_uri: str | None = None) -> Tokens:
        """The code of the callback (valid 60 s, once) for the first tokens."""
        return tokens_da_resposta(self._http.send(self._troca(codigo, code_verifier, redirect_uri)))

    def renovar(self, refresh_token: str, escopos: Iterable[str] | None = None) -> Tokens:
        """A new pair; the refresh token used stops working (rotation)."""
        return tokens_da_resposta(self._http.send(self._renovacao(refresh_token, escopos)))

    def revogar(self, token: str) -> None:
        """Ends the whole authorisation (access or refresh token); the linked account pauses."""
        _revogado(self._http.send(self._revogacao(token)))

    def autenticacao(self, tokens: Tokens, *, ao_renovar: Callable[[Tokens], Any] | None = None) -> AutenticacaoOAuth:
        return AutenticacaoOAuth(self, tokens, ao_renovar=ao_renovar)


class AsyncAppOAuth(_App):
    """An OAuth app, asynchronous (`await app.trocar_codigo(...)`)."""

    def __init__(self, *args: Any, http: httpx.AsyncClient | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._http = http or httpx.AsyncClient(timeout=30.0)

    async def trocar_codigo(self, codigo: str, code_verifier: str, *, redirect_uri: str | None = None) -> Tokens:
        return tokens_da_resposta(await self._http.send(self._troca(codigo, code_verifier, redirect_uri)))

    async def renovar(self, refresh_token: str, escopos: Iterable[str] | None = None) -> Tokens:
        return tokens_da_resposta(await self._http.send(self._renovacao(refresh_token, escopos)))

    async def revogar(self, token: str) -> None:
        _revogado(await self._http.send(self._revogacao(token)))

    def autenticacao(self, tokens: Tokens, *, ao_renovar: Callable[[Tokens], Any] | None = None) -> AutenticacaoOAuth:
        return AutenticacaoOAuth(self, tokens, ao_renovar=ao_renovar)


class AutenticacaoOAuth(httpx.Auth):
    """Bearer oat_… on every call, refreshed before expiry and once after a 401. Pass it as
    Vitrine(oauth=...) or AsyncVitrine(oauth=...); `tokens` always holds the current pair, and
    `ao_renovar(tokens)` is called after each refresh (store the new refresh token there).

    A refresh that fails before a call raises ErroOAuth; after a 401 (authorisation revoked) the
    401 itself is what the call raises (NaoAutorizado)."""

    requires_response_body = True

    def __init__(self, app: _App, tokens: Tokens, *, ao_renovar: Callable[[Tokens], Any] | None = None) -> None:
        self.app = app
        self.tokens = tokens
        self.ao_renovar = ao_renovar
        self._trava = threading.Lock()
        self._trava_async = asyncio.Lock()

    def _aplicar(self, resposta: httpx.Response) -> None:
        self.tokens = tokens_da_resposta(resposta)
        if self.ao_renovar is not None:
            self.ao_renovar(self.tokens)

    def _assinar(self, request: httpx.Request) -> str:
        token = self.tokens.access_token
        request.headers["Authorization"] = f"Bearer {token}"
        return token

    def _renovar(
        self, condicao: Callable[[], bool], *, estrito: bool
    ) -> Generator[httpx.Request, httpx.Response, None]:
        """Steps of a refresh, run under the lock: nothing when `condicao` no longer holds
        (another call refreshed meanwhile). A refusal raises ErroOAuth when `estrito`, else it
        leaves the tokens as they were."""
        if not condicao():
            return
        resposta = yield self.app._renovacao(self.tokens.refresh_token)
        if resposta.status_code == 200 or estrito:
            self._aplicar(resposta)

    # Both flows: refresh under the lock when the token is about to expire, send, and after a 401
    # refresh under the lock and send again. When that refresh is refused the request goes once
    # more as it was, so the caller sees the service's 401 (NaoAutorizado).
    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        if self.tokens.vencendo():
            with self._trava:
                yield from _lidos(self._renovar(self.tokens.vencendo, estrito=True))
        usado = self._assinar(request)
        resposta = yield request
        if resposta.status_code != 401:
            return
        with self._trava:
            yield from _lidos(self._renovar(lambda: usado == self.tokens.access_token, estrito=False))
        self._assinar(request)
        yield request

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        # an async generator cannot `yield from`: the refresh steps are driven by hand
        if self.tokens.vencendo():
            async with self._trava_async:
                passos = self._renovar(self.tokens.vencendo, estrito=True)
                pedido = _proximo(passos, None)
                while pedido is not None:
                    resposta = yield pedido
                    await resposta.aread()
                    pedido = _proximo(passos, resposta)
        usado = self._assinar(request)
        resposta = yield request
        if resposta.status_code != 401:
            return
        async with self._trava_async:
            passos = self._renovar(lambda: usado == self.tokens.access_token, estrito=False)
            pedido = _proximo(passos, None)
            while pedido is not None:
                resposta = yield pedido
                await resposta.aread()
                pedido = _proximo(passos, resposta)
        self._assinar(request)
        yield request


Passos = Generator[httpx.Request, httpx.Response, None]


def _proximo(passos: Passos, resposta: httpx.Response | None) -> httpx.Request | None:
    """The next request of `passos` given the previous answer (None to start); None at the end."""
    try:
        return next(passos) if resposta is None else passos.send(resposta)
    except StopIteration:
        return None


def _lidos(passos: Passos) -> Passos:
    """`passos` for the sync flow, with each answer read before it is handed on."""
    pedido = _proximo(passos, None)
    while pedido is not None:
        resposta = yield pedido
        resposta.read()
        pedido = _proximo(passos, resposta)
