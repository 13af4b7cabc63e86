"""OAuth apps of an integrator: registration, edits, secret rotation and disabling (the contract's
"OAuth app", OAuth rule 1 and the limits; docs/portal.md, "Apps OAuth").

A confidential app's client_secret is made here, shown once and kept only as its SHA-256
(graphql_api/oauth/segredos.py). A rotation replaces the hash; the previous secret stops at once
(the contract's default) or, when the integrator chose an overlap window, keeps working beside the
new one until the window ends by itself (`segredo_confere` is the rule of which secrets are valid
now). A disabled app stays disabled for good. Every change that affects authorisation or the
origins CORS allows (a public app's creation, disable, rotation, redirect URIs, scopes) is
published on the invalidation bus, so every process drops what it cached about apps."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from graphql_api.chave import service as chaves
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.permissions import exigir_reautenticacao
from graphql_api.core.principal import Ambiente, Principal
from graphql_api.core.relogio import agora
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import validate
from graphql_api.oauth import repository, segredos
from graphql_api.oauth.cache import CACHE_TOPIC
from graphql_api.oauth.models import AppOAuth
from graphql_api.oauth.revogacao import revogar_autorizacoes
from graphql_api.oauth.schemas import EdicaoApp, NovoApp, RotacaoSegredo, SituacaoApp, TipoApp, ler

if TYPE_CHECKING:
    from vitrine.infra.bus import InvalidationBus

MAX_APPS_ATIVOS = 10  # per integrator, test and production together (contract, "Limits")
FINAL_SEGREDO = 4  # characters of the secret kept to recognise it


@dataclass(frozen=True, slots=True)
class AppComSegredo:
    app: AppOAuth
    segredo: str | None  # the whole client_secret, shown once; None for a public app


async def _exigir_acesso_producao(integrador_id: str) -> None:
    """Production apps follow the live keys' rule (graphql_api/integracao/contrato.py): production
    released and the current contract accepted; otherwise an oat_live_ token would be a way
    around the contract."""
    bloqueio = await chaves.bloqueio_producao(integrador_id)
    if bloqueio is not None:
        raise ApiError(
            bloqueio.type,
            description="Apps OAuth de produção só podem ser criados com o acesso de produção liberado e o "
            f"contrato vigente aceito. {bloqueio.description or bloqueio.kind.causa}",
        )


async def bloqueio_producao(integrador_id: str) -> ApiError | None:
    """Why this integrator may not create production apps yet (for the portal to say before the
    attempt); None when it may."""
    try:
        await _exigir_acesso_producao(integrador_id)
    except ApiError as error:
        return error
    return None


async def criar(
    integrador_id: str,
    ambiente: Ambiente,
    dados: Any,
    *,
    principal: Principal | None = None,
    bus: InvalidationBus | None = None,
) -> AppComSegredo:
    """Register an app in `ambiente`. A person in the portal (`principal`) creating a production
    app types the password again first. At most MAX_APPS_ATIVOS active apps per integrator: the
    count runs with the integrator's row locked, so two creations at once cannot both pass it.
    `bus` tells every process of a public app (its origins are allowed by CORS at once)."""
    novo = ler(NovoApp, dados, ambiente)
    if ambiente is Ambiente.PRODUCAO:
        await _exigir_acesso_producao(integrador_id)
        if principal is not None:
            exigir_reautenticacao(principal)
    segredo = resumo = None
    if novo.tipo is TipoApp.confidencial:
        segredo, resumo = segredos.novo(segredos.SEGREDO_CLIENTE[ambiente])
    async with transaction():
        if await repository.travar_integrador(integrador_id) is None:
            raise ApiError("NOT_FOUND", description=f"Integrador {integrador_id} não existe.")
        ativos = await repository.count_active(integrador_id)
        if ativos >= MAX_APPS_ATIVOS:
            raise ApiError(
                "OAUTH_APP_LIMIT_REACHED",
                description=f"Este integrador já tem {ativos} apps OAuth ativos (o máximo é {MAX_APPS_ATIVOS}, "
                "somando teste e produção). Desative um app que não usa mais para registrar outro.",
            )
        app = await AppOAuth.create(
            id=new_id("app_"),
            integrador_id=integrador_id,
            ambiente=ambiente.value,
            nome=novo.nome,
            tipo=novo.tipo.value,
            hash_segredo=resumo,
            final_segredo=segredo[-FINAL_SEGREDO:] if segredo else None,
            redirect_uris=novo.redirectUris,
            escopos=novo.escopos,
        )
    if bus is not None and novo.tipo is TipoApp.publico:  # its origins, allowed by CORS (origens.py)
        await bus.publish(CACHE_TOPIC)
    return AppComSegredo(app, segredo)


async def criar_app(principal: Principal, dados: Any, *, bus: InvalidationBus) -> AppComSegredo:
    """An app in the caller's environment, created by a person in the portal."""
    return await criar(principal.integrador_exigido, principal.ambiente, dados, principal=principal, bus=bus)


async def obter_app(principal: Principal, app_id: str) -> AppOAuth:
    """An app of the caller's integrator and environment (any, for staff); NOT_FOUND otherwise,
    the same as an app that does not exist."""
    return await encontrar(
        app_id, "app_", lambda: repository.app_visible(principal, app_id), f"App OAuth {app_id} não encontrado."
    )


async def listar_apps(principal: Principal, integrador_id: str | None = None) -> list[AppOAuth]:
    """Active apps first, newest first. People list their integrator's apps of the session's
    environment; staff name the integrator."""
    if principal.is_staff and not integrador_id:
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[FieldError("integradorId", "obrigatorio", "Informe o integrador (itg_…) cujos apps quer ver.")],
        )
    if not principal.is_staff and integrador_id not in (None, principal.integrador_id):
        raise ApiError("FORBIDDEN", description="Só a equipe do serviço consulta apps de outro integrador.")
    return await repository.apps_visible(principal, integrador_id).order_by("situacao", "-criado_em")


def _exigir_ativo(app: AppOAuth) -> None:
    if app.situacao != SituacaoApp.ativo.value:
        raise ApiError("OAUTH_APP_DISABLED", description=f"O app {app.id} foi desativado e não pode mais ser alterado.")


def _producao(app: AppOAuth) -> bool:
    return app.ambiente == Ambiente.PRODUCAO.value


async def _mudar(app: AppOAuth, bus: InvalidationBus, **values: Any) -> AppOAuth:
    """Apply a change to an app still active, tell every process, and read it back."""
    values.setdefault("atualizado_em", agora())
    if not await repository.update_active(app.id, **values):
        _exigir_ativo(await AppOAuth.get(id=app.id))  # disabled in the meantime
    await bus.publish(CACHE_TOPIC)
    return await AppOAuth.get(id=app.id)


async def editar_app(principal: Principal, app_id: str, dados: Any, *, bus: InvalidationBus) -> AppOAuth:
    """Change name, redirect URIs or allowed scopes (type and environment never change). A
    production app's redirect URIs decide where sellers' codes go: the password is asked again."""
    app = await obter_app(principal, app_id)
    _exigir_ativo(app)
    edicao = ler(EdicaoApp, dados if dados is not None else {}, Ambiente(app.ambiente), TipoApp(app.tipo))
    values = {
        campo: valor
        for campo, valor in (
            ("nome", edicao.nome),
            ("redirect_uris", edicao.redirectUris),
            ("escopos", edicao.escopos),
        )
        if valor is not None
    }
    if not values:
        return app
    if _producao(app):
        exigir_reautenticacao(principal)
    return await _mudar(app, bus, **values)


def segredo_anterior_vale(app: AppOAuth, agora_: datetime | None = None) -> bool:
    """Whether the secret a rotation replaced still works: its overlap window has not ended."""
    expira = app.segredo_anterior_expira_em
    return app.hash_segredo_anterior is not None and expira is not None and expira > (agora_ or agora())


def segredo_confere(app: AppOAuth, valor: str) -> bool:
    """Whether `valor` is a client_secret of this app valid now: the current one, or the previous
    one during the overlap window its rotation chose. Both compared in constant time."""
    atual = segredos.confere(app.hash_segredo, valor)
    anterior = segredos.confere(app.hash_segredo_anterior, valor)
    return atual or (anterior and segredo_anterior_vale(app))


async def rotacionar_segredo(
    principal: Principal, app_id: str, dados: Any = None, *, bus: InvalidationBus
) -> AppComSegredo:
    """A new client_secret, shown once. The current one stops at once (carenciaHoras 0, the
    default: what one does when a secret leaked) or keeps working beside the new one for the
    chosen hours, up to 7 days, so the integrator deploys the new one without failing a single
    exchange. At most two secrets: a rotation inside a window ends the oldest at once."""
    pedido = validate(RotacaoSegredo, dados if dados is not None else {})
    app = await obter_app(principal, app_id)
    _exigir_ativo(app)
    if app.tipo != TipoApp.confidencial.value:
        raise ApiError("OAUTH_APP_HAS_NO_SECRET")
    if _producao(app):
        exigir_reautenticacao(principal)
    segredo, resumo = segredos.novo(segredos.SEGREDO_CLIENTE[Ambiente(app.ambiente)])
    momento = agora()
    async with transaction():
        atual = await repository.travar_app(app.id)  # the secret being replaced, read under the lock
        _exigir_ativo(atual)
        carencia = pedido.carenciaHoras
        await repository.update_active(
            app.id,
            hash_segredo=resumo,
            final_segredo=segredo[-FINAL_SEGREDO:],
            segredo_rotacionado_em=momento,
            hash_segredo_anterior=atual.hash_segredo if carencia else None,
            final_segredo_anterior=atual.final_segredo if carencia else None,
            segredo_anterior_expira_em=momento + timedelta(hours=carencia) if carencia else None,
            atualizado_em=momento,
        )
    await bus.publish(CACHE_TOPIC)
    return AppComSegredo(await AppOAuth.get(id=app.id), segredo)


async def desativar_app(principal: Principal, app_id: str, *, bus: InvalidationBus) -> AppOAuth:
    """Disable an app for good: it stops counting toward the limit and cannot be enabled again.
    Its authorisations end with it (it leaves its sellers' "Apps conectados"; an account left
    without an active authorisation pauses and its integrator gets conta.desvinculada).
    Disabling a disabled app changes nothing."""
    app = await obter_app(principal, app_id)
    momento = agora()
    if await repository.update_active(
        app.id, situacao=SituacaoApp.desativado.value, desativado_em=momento, atualizado_em=momento
    ):
        ids = await repository.ids_autorizacoes_abertas(app_id=app.id)
        await revogar_autorizacoes(ids, motivo="app_desativado", bus=None)
        await bus.publish(CACHE_TOPIC)
    return await AppOAuth.get(id=app.id)
