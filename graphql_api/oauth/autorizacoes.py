"""The authorisation request (/oauth/autorizar): its checks, the seller's consent, the code it
gives, the linked account it creates or brings back, and the seller's "Apps conectados".

Order of the checks (RFC 6749 §4.1.2.1): client_id and redirect_uri first — a request that fails
them is shown to the seller as an error page and never redirected (an unknown address could be
an attacker's). Every later error goes back to the registered redirect_uri with `error`,
`error_description`, `state` and `iss` (RFC 9207). Descriptions are ASCII, as RFC 6749 requires
of error_description (Portuguese written without accents)."""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from authlib.common.urls import add_params_to_uri
from authlib.oauth2.rfc6749.errors import (
    AccessDeniedError,
    InvalidRequestError,
    InvalidScopeError,
    OAuth2Error,
    UnsupportedResponseTypeError,
)

from graphql_api.conta.models import Conta
from graphql_api.core.errors import ApiError
from graphql_api.core.ids import new_id, pode_existir
from graphql_api.core.principal import CredentialKind, Principal
from graphql_api.core.relogio import agora
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import tem_controle
from graphql_api.oauth import escopos as catalogo_escopos
from graphql_api.oauth import repository, retornos, segredos
from graphql_api.oauth.models import AppOAuth, Autorizacao, CodigoAutorizacao
from graphql_api.oauth.revogacao import revogar_autorizacoes
from graphql_api.oauth.schemas import Pedido
from graphql_api.vendedor.models import Vendedor

log = logging.getLogger(__name__)

CODE_TTL = timedelta(seconds=60)
AUTORIZACOES_POR_JANELA = 10  # per seller and app (contract, Limits)
JANELA_AUTORIZACOES = timedelta(minutes=10)
MAX_STATE = 1000  # characters; a state is the client's opaque value, sent back as it came
# RFC 7636 §4.2: S256 is BASE64URL(SHA-256(verifier)) without padding, always 43 characters.
S256_CHALLENGE = re.compile(r"^[A-Za-z0-9_-]{43}$")


class TemporariamenteIndisponivel(OAuth2Error):
    """RFC 6749's temporarily_unavailable, as a 429 that says how long to wait."""

    error = "temporarily_unavailable"
    status_code = 429

    def __init__(self, description: str, retry_after: int | None = None) -> None:
        super().__init__(description=description)
        self.retry_after = retry_after


class ErroInterno(OAuth2Error):
    """RFC 6749's server_error: what the app hears when this side failed unexpectedly."""

    error = "server_error"


def _erro_interno() -> ErroInterno:
    log.exception("authorisation request failed")
    return ErroInterno(description="Erro interno do servidor de autorizacao; tente de novo.")


@dataclass(frozen=True)
class PedidoValido:
    app: AppOAuth
    integrador_nome: str
    redirect_uri: str
    escopos: list[str]
    state: str | None
    code_challenge: str

    @property
    def destino(self) -> retornos.Destino:
        """Where the code will go, as the consent screen shows it."""
        return retornos.destino(self.redirect_uri)


@dataclass(frozen=True)
class Avaliacao:
    """What the consent page does with a request: show the consent (`pedido`) or send the
    browser back to the app (`redirecionar_para`, an error for the app)."""

    pedido: PedidoValido | None = None
    redirecionar_para: str | None = None


def _erro_de_cliente(descricao: str) -> ApiError:
    return ApiError("OAUTH_CLIENT_INVALID", description=descricao)


def _resposta(redirect_uri: str, issuer: str, params: list[tuple[str, str]], state: str | None) -> str:
    if state is not None:
        params.append(("state", state))
    params.append(("iss", issuer))
    return add_params_to_uri(redirect_uri, params)


def redirecionar_erro(pedido: PedidoValido | tuple[str, str | None], erro: OAuth2Error, issuer: str) -> str:
    """The registered redirect_uri carrying this error for the app."""
    redirect_uri, state = (
        (pedido.redirect_uri, pedido.state) if isinstance(pedido, PedidoValido) else (pedido[0], pedido[1])
    )
    params = [("error", erro.error)]
    if erro.description:
        params.append(("error_description", erro.description))
    return _resposta(redirect_uri, issuer, params, state)


async def _app_e_destino(pedido: Pedido) -> tuple[AppOAuth, str]:
    """The app and the redirect URI, or an error the seller sees (never a redirect)."""
    for nome in ("client_id", "redirect_uri"):
        if nome in pedido.repetidos:
            raise _erro_de_cliente(f"O parâmetro {nome} veio repetido no endereço de autorização.")
    client_id = pedido.get("client_id") or ""
    if not client_id:
        raise _erro_de_cliente("O endereço de autorização não traz o parâmetro client_id do aplicativo.")
    app = await repository.app(client_id) if pode_existir(client_id, "app_") else None
    if app is None:
        raise _erro_de_cliente(f"Não existe aplicativo com client_id {client_id[:40]}.")
    if app.situacao != "ativo":
        raise _erro_de_cliente(f"O aplicativo {app.nome} foi desativado pelo integrador.")
    redirect_uri = pedido.get("redirect_uri")
    if not redirect_uri:
        raise ApiError(
            "OAUTH_REDIRECT_URI_INVALID", description="O endereço de autorização não traz o parâmetro redirect_uri."
        )
    if not retornos.cadastrado(redirect_uri, app.redirect_uris):  # exact, but a loopback IP's port
        raise ApiError(
            "OAUTH_REDIRECT_URI_INVALID",
            description=f"O endereço de retorno pedido não é um dos cadastrados no aplicativo {app.nome}.",
        )
    return app, redirect_uri


def _escopos_pedidos(app: AppOAuth, scope: str | None) -> list[str]:
    if scope is None or not scope.strip():
        return catalogo_escopos.ordenados(app.escopos)  # no scope: everything the app may ask
    pedidos = scope.split()
    fora = [e for e in pedidos if e not in app.escopos]
    if fora:
        desconhecidos = [e for e in fora if e not in catalogo_escopos.DESCRICOES]
        if desconhecidos:
            raise InvalidScopeError(description=f"Escopo desconhecido: {citar(desconhecidos[0])}.")
        raise InvalidScopeError(description=f"O aplicativo nao pode pedir o escopo {fora[0]}.")
    return catalogo_escopos.ordenados(pedidos)


def citar(valor: str) -> str:
    """A client's value quoted in an error_description: printable ASCII only (RFC 6749 §5.2 allows
    no quote nor backslash either, and authlib refuses to build such an error), at most 40."""
    return "".join(c for c in valor[:40] if 0x20 <= ord(c) <= 0x7E and c not in '"\\') or "?"


def _verificar_parametros(pedido: Pedido, app: AppOAuth, integrador_nome: str) -> PedidoValido:
    """The rest of the request, once the redirect URI can be trusted; errors are redirected."""
    if pedido.repetidos:
        raise InvalidRequestError(description=f"Parametro repetido: {citar(pedido.repetidos[0])}.")
    state = pedido.get("state")
    if state is not None and not _state_valido(state):
        raise InvalidRequestError(description=f"O parametro state deve ter ate {MAX_STATE} caracteres, sem controle.")
    response_type = pedido.get("response_type")
    if not response_type:
        raise InvalidRequestError(description="Falta o parametro response_type (use code).")
    if response_type != "code":
        raise UnsupportedResponseTypeError(citar(response_type), description="Apenas response_type=code e aceito.")
    metodo = pedido.get("code_challenge_method")
    challenge = pedido.get("code_challenge")
    if not challenge:
        raise InvalidRequestError(description="PKCE e obrigatorio: envie code_challenge e code_challenge_method=S256.")
    if metodo != "S256":
        raise InvalidRequestError(
            description="code_challenge_method deve ser S256; o metodo plain nao e aceito."
            if metodo == "plain"
            else "Envie code_challenge_method=S256."
        )
    if not S256_CHALLENGE.fullmatch(challenge):
        raise InvalidRequestError(
            description="code_challenge deve ser BASE64URL(SHA-256(code_verifier)) sem '=': 43 caracteres."
        )
    return PedidoValido(
        app=app,
        integrador_nome=integrador_nome,
        redirect_uri=pedido.get("redirect_uri") or "",
        escopos=_escopos_pedidos(app, pedido.get("scope")),
        state=state,
        code_challenge=challenge,
    )


async def avaliar(pedido: Pedido, *, issuer: str) -> Avaliacao:
    """Check an authorisation request. Raises ApiError for what only the seller may see (bad
    client_id or redirect_uri); returns the error redirect for the rest, or the valid request."""
    app, redirect_uri = await _app_e_destino(pedido)
    try:
        nome = await repository.nome_do_integrador(app.integrador_id)
        return Avaliacao(pedido=_verificar_parametros(pedido, app, nome))
    except Exception as falha:
        erro = falha if isinstance(falha, OAuth2Error) else _erro_interno()
        return Avaliacao(redirecionar_para=redirecionar_erro((redirect_uri, _state_seguro(pedido)), erro, issuer))


def _state_valido(state: str) -> bool:
    return len(state) <= MAX_STATE and not tem_controle(state)


def _state_seguro(pedido: Pedido) -> str | None:
    """The state to send back with an error: as it came, unless it is itself the problem."""
    state = pedido.get("state")
    if state is None or not _state_valido(state) or "state" in pedido.repetidos:
        return None
    return state


def _vendedor_de(principal: Principal) -> str:
    if principal.kind is not CredentialKind.VENDEDOR or principal.ator_id is None:
        raise ApiError("FORBIDDEN", description="Apenas o vendedor, com a sessão aberta, autoriza aplicativos.")
    return principal.ator_id


_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"


def codigo_de_vendedor() -> str:
    """A linked account's codigoExterno: an opaque id of the seller for one integrator, random
    (no moment in it, unlike a ULID) and never the seller's global id, so two integrators cannot
    tell they serve the same seller."""
    return "vdr_" + "".join(secrets.choice(_CROCKFORD) for _ in range(26))


async def _conta_vinculada(vendedor: Vendedor, app: AppOAuth) -> Conta:
    """The seller's linked account under the app's integrator and environment: created by the first
    consent, brought back (same cta_, products kept) by a later one after a revocation. It becomes
    active when a code is exchanged (repository.conceder), not here: a consent whose code is never
    exchanged gives the integrator nothing."""
    conta = await repository.conta_do_vendedor(vendedor.id, app.integrador_id, app.ambiente)
    if conta is None:
        conta = await Conta.create(
            id=new_id("cta_"),
            integrador_id=app.integrador_id,
            ambiente=app.ambiente,
            codigo_externo=codigo_de_vendedor(),
            nome=vendedor.nome,
            origem="vinculada",
            situacao="pausada",
            vendedor_id=vendedor.id,
        )
    return conta


async def autorizar(principal: Principal, pedido: Pedido, *, issuer: str) -> str:
    """The seller pressed "Autorizar": where the browser goes — redirect_uri with the code, or
    with an error. The request is checked again: the form came back from the browser."""
    vendedor_id = _vendedor_de(principal)
    avaliacao = await avaliar(pedido, issuer=issuer)
    if avaliacao.pedido is None:
        assert avaliacao.redirecionar_para is not None
        return avaliacao.redirecionar_para
    try:
        return await _dar_codigo(vendedor_id, avaliacao.pedido, issuer)
    except Exception:
        return redirecionar_erro(avaliacao.pedido, _erro_interno(), issuer)


async def _dar_codigo(vendedor_id: str, valido: PedidoValido, issuer: str) -> str:
    now = agora()
    codigo, resumo = segredos.novo(segredos.CODIGO)
    async with transaction():
        # The seller's row locked until the commit: consents sent at once are counted one by one.
        vendedor = await repository.travar_vendedor(vendedor_id)
        recentes = await repository.autorizacoes_desde(vendedor_id, valido.app.id, now - JANELA_AUTORIZACOES)
        if recentes >= AUTORIZACOES_POR_JANELA:
            erro = TemporariamenteIndisponivel(
                "Muitas autorizacoes deste vendedor para este aplicativo em 10 minutos; tente mais tarde."
            )
            return redirecionar_erro(valido, erro, issuer)
        conta = await _conta_vinculada(vendedor, valido.app)
        autorizacao = await Autorizacao.create(
            id=new_id("aut_"),
            app_id=valido.app.id,
            vendedor_id=vendedor_id,
            conta_id=conta.id,
            integrador_id=valido.app.integrador_id,
            ambiente=valido.app.ambiente,
            escopos=valido.escopos,
            criado_em=now,
        )
        await CodigoAutorizacao.create(
            id=resumo,
            autorizacao_id=autorizacao.id,
            redirect_uri=valido.redirect_uri,
            code_challenge=valido.code_challenge,
            escopos=valido.escopos,
            expira_em=now + CODE_TTL,
        )
    return _resposta(valido.redirect_uri, issuer, [("code", codigo)], valido.state)


async def recusar(principal: Principal, pedido: Pedido, *, issuer: str) -> str:
    """The seller pressed "Cancelar": back to the app with access_denied."""
    _vendedor_de(principal)
    avaliacao = await avaliar(pedido, issuer=issuer)
    if avaliacao.pedido is None:
        assert avaliacao.redirecionar_para is not None
        return avaliacao.redirecionar_para
    erro = AccessDeniedError(description="O vendedor recusou a autorizacao.")
    return redirecionar_erro(avaliacao.pedido, erro, issuer)


@dataclass(frozen=True)
class AppConectado:
    """An app the seller authorised and has not revoked, as "Apps conectados" lists it."""

    app_id: str
    app_nome: str
    integrador_nome: str
    ambiente: str
    conta_id: str
    escopos: list[str]
    autorizado_em: object  # datetime of the latest authorisation


async def apps_conectados(principal: Principal) -> list[AppConectado]:
    vendedor_id = _vendedor_de(principal)
    linhas = await repository.autorizacoes_ativas_do_vendedor(vendedor_id)
    por_app: dict[str, AppConectado] = {}
    for linha in linhas:  # newest first
        atual = por_app.get(linha["app_id"])
        escopos = set(linha["escopos"]) | set(atual.escopos if atual else ())
        por_app[linha["app_id"]] = AppConectado(
            app_id=linha["app_id"],
            app_nome=linha["app__nome"],
            integrador_nome=linha["app__integrador__nome"],
            ambiente=linha["ambiente"],
            conta_id=linha["conta_id"],
            escopos=catalogo_escopos.ordenados(escopos),
            autorizado_em=atual.autorizado_em if atual else linha["criado_em"],
        )
    return list(por_app.values())


async def revogar_app(principal: Principal, app_id: str, *, bus) -> int:
    """The seller revokes an app: every authorisation of the seller to it ends (as
    /oauth/revogar would), codes still pending included; its tokens answer 401 at once, the
    account pauses."""
    vendedor_id = _vendedor_de(principal)
    if not await repository.tem_autorizacao_ativa(vendedor_id=vendedor_id, app_id=app_id):
        raise ApiError("NOT_FOUND", description="Este aplicativo não está conectado à sua loja.")
    ids = await repository.ids_autorizacoes_abertas(vendedor_id=vendedor_id, app_id=app_id)
    return await revogar_autorizacoes(ids, motivo="vendedor", bus=bus)
