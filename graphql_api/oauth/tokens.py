"""The token endpoint's grants (authorization_code with PKCE S256, refresh_token with rotation),
client authentication, revocation (RFC 7009) and the authentication of oat_ tokens on /v1.

Errors are authlib's OAuth2Error classes: the door answers them as `{error, error_description}`
with their status. Descriptions are ASCII (RFC 6749 §5.2), Portuguese written without accents.

Reuse detection (RFC 9700 §4.14, §4.5): a code used twice, a wrong code_verifier or a rotated
refresh token presented again end the whole authorisation — every token issued from it."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from authlib.oauth2.rfc6749.errors import (
    InvalidClientError,
    InvalidGrantError,
    InvalidRequestError,
    InvalidScopeError,
    OAuth2Error,
    UnsupportedGrantTypeError,
)
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from graphql_api.chave.service import Autenticacao
from graphql_api.chave.situacao import RateLimits, SituacaoIntegrador
from graphql_api.core.errors import ApiError
from graphql_api.core.ids import pode_existir
from graphql_api.core.principal import Ambiente, CredentialKind, Principal
from graphql_api.core.purge import Purge
from graphql_api.core.relogio import agora
from graphql_api.core.transactions import transaction
from graphql_api.oauth import apps, repository, segredos
from graphql_api.oauth import escopos as catalogo_escopos
from graphql_api.oauth.autorizacoes import TemporariamenteIndisponivel, citar
from graphql_api.oauth.models import AppOAuth, Autorizacao, TokenOAuth
from graphql_api.oauth.revogacao import revogar_autorizacoes
from vitrine.infra.cache import CredentialCache
from vitrine.infra.ratelimit import RateLimiter

ACCESS_TTL = timedelta(hours=1)
REFRESH_TTL = timedelta(days=30)
GUARDA_APOS_EXPIRAR = timedelta(days=7)  # an expired token's row is kept this long
CHAMADAS_POR_MINUTO = 60  # token endpoint, per app (contract, Limits)
FALHAS_PARA_BLOQUEIO = 20  # client authentication failures ...
JANELA_FALHAS = timedelta(minutes=10)  # ... in this window block the app ...
BLOQUEIO = timedelta(minutes=10)  # ... for this long
CODE_VERIFIER = re.compile(r"^[A-Za-z0-9._~-]{43,128}$")  # RFC 7636 §4.1
ACCESS_TOKEN = re.compile(r"^oat_(test|live)_[A-Za-z0-9]{40}$")
AMBIENTE_POR_MARCA = {"test": Ambiente.TESTE, "live": Ambiente.PRODUCAO}
GRANTS = ("authorization_code", "refresh_token")


@dataclass(frozen=True)
class Credenciais:
    """The client's credentials as the door read them: HTTP Basic or body fields, never both."""

    client_id: str | None
    client_secret: str | None


def _cliente_invalido(descricao: str) -> InvalidClientError:
    # Always 401, as the contract's table says (authlib then adds WWW-Authenticate: Basic).
    return InvalidClientError(description=descricao, status_code=401)


@dataclass
class Chamador:
    """Who calls the token or revocation endpoint, for its limits (docs/limites.md):
    - a caller that authenticates (a confidential app's secret; for a public app, a code or
      refresh token of its own) counts against the app's 60 calls a minute, and nothing else
      refuses it;
    - every authentication failure is counted per app *and source address*: 20 in 10 minutes
      block that app from that address for 10 minutes, never from the others;
    - a refused call that did not authenticate (junk, a wrong secret, an unknown client) counts
      against its address, and past `limite_origem` a minute its refusal becomes a 429.
    Nobody who does not hold the app's credentials can spend its quota or block it. The windows
    follow the domain's clock, so tests move them instead of waiting."""

    limiter: RateLimiter
    origem: str  # the caller's IP address (behind trusted proxies: the client's)
    limite_origem: int
    autenticado: bool = False

    async def autenticou(self, app: AppOAuth) -> None:
        """The caller proved it is `app`: one call of its per-minute quota."""
        if self.autenticado:
            return
        self.autenticado = True
        decisao = await self.limiter.hit([(f"oauth:app:{app.id}", CHAMADAS_POR_MINUTO)])
        if not decisao.allowed:
            raise _indisponivel(
                decisao.retry_after, "Limite de 60 chamadas por minuto deste aplicativo ao endpoint de token excedido."
            )

    async def falhou(self, app: AppOAuth | None) -> None:
        """The caller failed to prove it is `app` (None: no app has that client_id). Nothing for
        a caller that already authenticated: its invalid_grant is not an authentication failure."""
        if self.autenticado or app is None:
            return
        now = agora()
        falhas = await repository.contar_falha(app.id, self.origem, now, now - JANELA_FALHAS)
        if falhas >= FALHAS_PARA_BLOQUEIO:
            await repository.bloquear(app.id, self.origem, now + BLOQUEIO)

    async def recusado(self, erro: OAuth2Error) -> OAuth2Error:
        """The answer to a refused call: `erro`, or a 429 once this address's unauthenticated
        refusals pass their limit."""
        if self.autenticado or isinstance(erro, TemporariamenteIndisponivel):
            return erro
        decisao = await self.limiter.hit([(f"oauth:origem:{self.origem}", self.limite_origem)])
        if decisao.allowed:
            return erro
        return _indisponivel(
            decisao.retry_after,
            "Muitas chamadas recusadas vindas deste endereco; confira as credenciais do aplicativo.",
        )


def _indisponivel(segundos: int, descricao: str) -> TemporariamenteIndisponivel:
    return TemporariamenteIndisponivel(f"{descricao} Tente de novo em {segundos} segundos.", retry_after=segundos)


def retry_after(erro: OAuth2Error) -> int | None:
    """Seconds a 429 asks the client to wait (the door sends them as Retry-After)."""
    return erro.retry_after if isinstance(erro, TemporariamenteIndisponivel) else None


async def _barrar_bloqueio(app: AppOAuth, chamador: Chamador) -> None:
    now = agora()
    ate = await repository.bloqueado_ate(app.id, chamador.origem, now)
    if ate is not None:
        segundos = math.ceil((ate - now).total_seconds())
        raise _indisponivel(
            segundos,
            "Aplicativo bloqueado para este endereco por 10 minutos apos 20 falhas de autenticacao dele em 10 minutos.",
        )


async def autenticar_cliente(credenciais: Credenciais, chamador: Chamador) -> AppOAuth:
    """The app calling the token or revocation endpoint (RFC 6749 §2.3). Confidential apps prove
    their secret here; a public app sends only client_id and proves itself with the code or
    refresh token it presents (the grant calls `chamador.autenticou` once that is found)."""
    client_id = credenciais.client_id
    if not client_id:
        raise InvalidRequestError(description="Falta client_id (no corpo ou em HTTP Basic).")
    app = await repository.app(client_id) if pode_existir(client_id, "app_") else None
    if app is None:
        raise _cliente_invalido("client_id desconhecido.")
    await _barrar_bloqueio(app, chamador)
    if app.situacao != "ativo":
        raise _cliente_invalido("Aplicativo desativado pelo integrador.")
    if app.tipo == "publico":
        if credenciais.client_secret:
            await chamador.falhou(app)
            raise _cliente_invalido("Aplicativo publico nao tem client_secret: envie apenas client_id (e PKCE).")
        return app
    if not credenciais.client_secret:
        await chamador.falhou(app)
        raise _cliente_invalido("Aplicativo confidencial: envie client_secret (HTTP Basic ou corpo).")
    if not apps.segredo_confere(app, credenciais.client_secret):
        await chamador.falhou(app)
        raise _cliente_invalido("client_secret incorreto.")
    await chamador.autenticou(app)
    return app


def _exigir(parametros: dict[str, str], nome: str) -> str:
    valor = parametros.get(nome)
    if not valor:
        raise InvalidRequestError(description=f"Falta o parametro {nome}.")
    return valor


async def emitir(parametros: dict[str, str], app: AppOAuth, chamador: Chamador, *, bus) -> dict[str, Any]:
    """The token response for a grant request of `app` (a public app authenticates with the code
    or refresh token it presents). `bus` carries revocations to every process."""
    grant_type = _exigir(parametros, "grant_type")
    if grant_type == "authorization_code":
        return await _trocar_codigo(parametros, app, chamador, bus)
    if grant_type == "refresh_token":
        return await _renovar(parametros, app, chamador, bus)
    erro = UnsupportedGrantTypeError(grant_type[:40])
    erro.description = "Use grant_type authorization_code ou refresh_token."
    raise erro


async def _emitir_par(autorizacao: Autorizacao, escopos: list[str]) -> dict[str, Any]:
    """A new access token (these scopes) and refresh token (the seller's whole grant)."""
    now = agora()
    acesso, resumo_acesso = segredos.novo(segredos.TOKEN_ACESSO[Ambiente(autorizacao.ambiente)])
    renovacao, resumo_renovacao = segredos.novo(segredos.TOKEN_RENOVACAO)
    await TokenOAuth.bulk_create(
        [
            TokenOAuth(
                id=resumo_acesso,
                autorizacao_id=autorizacao.id,
                tipo="acesso",
                escopos=escopos,
                criado_em=now,
                expira_em=now + ACCESS_TTL,
            ),
            TokenOAuth(
                id=resumo_renovacao,
                autorizacao_id=autorizacao.id,
                tipo="renovacao",
                escopos=autorizacao.escopos,
                criado_em=now,
                expira_em=now + REFRESH_TTL,
            ),
        ]
    )
    return {
        "access_token": acesso,
        "token_type": "Bearer",
        "expires_in": int(ACCESS_TTL.total_seconds()),
        "refresh_token": renovacao,
        "scope": catalogo_escopos.como_texto(escopos),
        "conta_id": autorizacao.conta_id,
    }


async def _encerrar(autorizacao: Autorizacao, motivo: str, bus) -> None:
    await revogar_autorizacoes([autorizacao.id], motivo=motivo, bus=bus)


async def _trocar_codigo(parametros: dict[str, str], app: AppOAuth, chamador: Chamador, bus) -> dict[str, Any]:
    code = _exigir(parametros, "code")
    redirect_uri = _exigir(parametros, "redirect_uri")
    verifier = _exigir(parametros, "code_verifier")
    resumo = segredos.resumo(code)
    codigo = await repository.codigo(resumo) if code.startswith(segredos.CODIGO) else None
    if codigo is None or codigo.autorizacao.app_id != app.id:
        await chamador.falhou(app)
        raise InvalidGrantError(description="Codigo de autorizacao invalido.")
    await chamador.autenticou(app)
    autorizacao = codigo.autorizacao
    now = agora()
    if codigo.usado_em is not None:
        await _encerrar(autorizacao, "codigo_reutilizado", bus)
        raise InvalidGrantError(
            description="Codigo ja usado: a autorizacao foi encerrada e os tokens emitidos com ele, revogados."
        )
    if autorizacao.revogada_em is not None:
        raise InvalidGrantError(description="A autorizacao deste codigo foi encerrada.")
    if codigo.expira_em <= now:
        raise InvalidGrantError(description="Codigo expirado: ele vale 60 segundos. Peca nova autorizacao.")
    if redirect_uri != codigo.redirect_uri:
        raise InvalidGrantError(description="redirect_uri diferente do usado no pedido de autorizacao.")
    if not CODE_VERIFIER.fullmatch(verifier) or create_s256_code_challenge(verifier) != codigo.code_challenge:
        await repository.usar_codigo(resumo, now)
        await _encerrar(autorizacao, "verificador_incorreto", bus)
        raise InvalidGrantError(
            description="code_verifier nao confere com o code_challenge: o codigo foi invalidado e a autorizacao encerrada."
        )
    async with transaction():
        primeiro = await repository.usar_codigo(resumo, now)
        # The authorisation exists from here on: it lists, and its linked account is active.
        concedida = primeiro and await repository.conceder(autorizacao, now)
        resposta = await _emitir_par(autorizacao, codigo.escopos) if concedida else None
    if not primeiro:  # another request exchanged it a moment ago: a replay
        await _encerrar(autorizacao, "codigo_reutilizado", bus)
        raise InvalidGrantError(description="Codigo ja usado: a autorizacao foi encerrada.")
    if resposta is None:  # the seller revoked it between the checks and now
        raise InvalidGrantError(description="A autorizacao deste codigo foi encerrada.")
    return resposta


async def _renovar(parametros: dict[str, str], app: AppOAuth, chamador: Chamador, bus) -> dict[str, Any]:
    valor = _exigir(parametros, "refresh_token")
    resumo = segredos.resumo(valor)
    token = await repository.token_de_renovacao(resumo) if valor.startswith(segredos.TOKEN_RENOVACAO) else None
    if token is None or token.autorizacao.app_id != app.id:
        await chamador.falhou(app)
        raise InvalidGrantError(description="refresh_token invalido.")
    await chamador.autenticou(app)
    autorizacao = token.autorizacao
    if autorizacao.revogada_em is not None:
        raise InvalidGrantError(description="A autorizacao deste refresh_token foi encerrada.")
    if token.usado_em is not None:
        await _encerrar(autorizacao, "renovacao_reutilizada", bus)
        raise InvalidGrantError(
            description="refresh_token ja usado (foi trocado por outro): a autorizacao foi encerrada por seguranca."
        )
    now = agora()
    if token.expira_em <= now:
        raise InvalidGrantError(description="refresh_token expirado (vale 30 dias). Peca nova autorizacao.")
    escopos = _escopos_da_renovacao(parametros.get("scope"), autorizacao, app)
    async with transaction():
        girou = await repository.girar_renovacao(resumo, now)
        resposta = await _emitir_par(autorizacao, escopos) if girou else None
    if resposta is None:  # rotated by a concurrent request: the same token presented twice
        await _encerrar(autorizacao, "renovacao_reutilizada", bus)
        raise InvalidGrantError(description="refresh_token ja usado: a autorizacao foi encerrada por seguranca.")
    return resposta


def _escopos_da_renovacao(scope: str | None, autorizacao: Autorizacao, app: AppOAuth) -> list[str]:
    """A refresh may ask the same or fewer scopes than the seller authorised, within what the app
    may still ask; none asked = all of them."""
    concedidos = [e for e in autorizacao.escopos if e in app.escopos]
    if scope is None or not scope.strip():
        return catalogo_escopos.ordenados(concedidos)
    pedidos = scope.split()
    fora = [e for e in pedidos if e not in concedidos]
    if fora:
        raise InvalidScopeError(
            description=f"O escopo {citar(fora[0])} nao foi autorizado pelo vendedor a este aplicativo."
        )
    return catalogo_escopos.ordenados(pedidos)


async def revogar(token: str, app: AppOAuth, chamador: Chamador, *, bus) -> None:
    """RFC 7009: an access or refresh token of this app ends its whole authorisation. Unknown
    tokens, and tokens of other apps, change nothing (the answer is 200 all the same); for a
    public app, which has no secret, they count as a failed authentication."""
    autorizacao = await repository.autorizacao_do_token(segredos.resumo(token)) if len(token) <= 200 else None
    if autorizacao is None or autorizacao.app_id != app.id:
        await chamador.falhou(app)
        return
    await chamador.autenticou(app)
    await _encerrar(autorizacao, "revogacao", bus)


# -- oat_ tokens on /v1 ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _TokenEmCache:
    escopos: frozenset[str]
    expira_em: float  # unix seconds
    revogada: bool
    app_id: str
    app_ativo: bool
    conta_id: str
    conta_ativa: bool
    integrador_id: str
    ambiente: Ambiente
    integrador: SituacaoIntegrador


# SHA-256 of an access token -> what authentication needs. Cleared in every process on
# CACHE_TOPIC (revocations, disabled apps) and on the keys' topic (the integrator paused, its
# production suspended, its limits changed: the entries carry those too).
TokenCache = CredentialCache[_TokenEmCache]


async def _ler(resumo: str) -> _TokenEmCache | None:
    row = await repository.token_de_acesso(resumo)
    if row is None:
        return None
    return _TokenEmCache(
        escopos=frozenset(row["escopos"]),
        expira_em=row["expira_em"].timestamp(),
        revogada=row["autorizacao__revogada_em"] is not None,
        app_id=row["autorizacao__app_id"],
        app_ativo=row["autorizacao__app__situacao"] == "ativo",
        conta_id=row["autorizacao__conta_id"],
        conta_ativa=row["autorizacao__conta__situacao"] == "ativa",
        integrador_id=row["autorizacao__integrador_id"],
        ambiente=Ambiente(row["autorizacao__ambiente"]),
        integrador=await SituacaoIntegrador.ler(
            row, "autorizacao__conta__integrador__", row["autorizacao__integrador_id"], row["autorizacao__ambiente"]
        ),
    )


async def _carregar(resumo: str, cache: TokenCache) -> _TokenEmCache | None:
    return await cache.get_or_load(resumo, _ler)


@dataclass(frozen=True, slots=True)
class TokenConhecido:
    """Whom an existing access token belongs to, even when it is refused (for the call log)."""

    integrador_id: str
    ambiente: Ambiente
    client_id: str
    conta_id: str


async def identificar(token: str, cache: TokenCache) -> TokenConhecido | None:
    """The integrator, app and linked account of a token this service issued, revoked or expired
    alike (as chave.service.identify does for keys): a refused call still reaches the call log of
    the integrator who can fix it. None for a token that does not exist."""
    if ACCESS_TOKEN.fullmatch(token) is None:
        return None
    entry = await _carregar(segredos.resumo(token), cache)
    if entry is None:
        return None
    return TokenConhecido(entry.integrador_id, entry.ambiente, entry.app_id, entry.conta_id)


async def autenticar_token(token: str, cache: TokenCache, *, default_limits: RateLimits) -> Autenticacao:
    """An oat_ token on /v1: the Principal of its linked account, or 401/403 as for API keys."""
    match = ACCESS_TOKEN.fullmatch(token)
    if match is None:
        raise ApiError("UNAUTHORIZED", description="O token OAuth não tem o formato oat_test_… ou oat_live_….")
    entry = await _carregar(segredos.resumo(token), cache)
    if entry is None:
        raise ApiError("UNAUTHORIZED", description="Token OAuth inexistente ou incorreto.")
    if not entry.app_ativo:  # first: disabling the app also ended its authorisations
        raise ApiError("UNAUTHORIZED", description="O aplicativo deste token foi desativado pelo integrador.")
    if entry.revogada or not entry.conta_ativa:
        raise ApiError(
            "UNAUTHORIZED", description="A autorização deste token foi revogada; a conta vinculada está pausada."
        )
    if entry.expira_em <= agora().timestamp():  # the domain's one clock
        raise ApiError("UNAUTHORIZED", description="Token OAuth expirado (vale 1 hora): use o refresh_token.")
    ambiente = AMBIENTE_POR_MARCA[match.group(1)]
    if entry.ambiente is not ambiente:  # cannot happen for a token this service issued
        raise ApiError("UNAUTHORIZED", description="O prefixo do token não corresponde ao ambiente dele.")
    limits = entry.integrador.admitir(ambiente, default_limits)
    principal = Principal(
        kind=CredentialKind.OAUTH,
        ambiente=ambiente,
        scopes=entry.escopos,
        integrador_id=entry.integrador_id,
        conta_id=entry.conta_id,
        client_id=entry.app_id,
    )
    return Autenticacao(principal, limits)


async def expurgar(now: datetime | None = None, purge: Purge | None = None) -> tuple[int, int, int]:
    """Codes a day after they expired (a replay still finds them the first day), tokens a week
    after (a call with an expired token is still told "expired: refresh", and logged for its
    integrator), authentication failures outside the counting window."""
    now = now or agora()
    return await repository.expurgar(
        purge or Purge(), now - timedelta(days=1), now - GUARDA_APOS_EXPIRAR, now - JANELA_FALHAS
    )
