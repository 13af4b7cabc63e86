"""Queries of the OAuth domain: apps (graphql_api/oauth/apps.py), authorisations, codes and tokens."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tortoise.queryset import QuerySet

from graphql_api.chave import situacao
from graphql_api.conta.models import Conta
from graphql_api.core.principal import Principal
from graphql_api.core.purge import Purge
from graphql_api.core.tenancy import tenant_filter
from graphql_api.integrador.models import Integrador
from graphql_api.oauth.models import (
    AppOAuth,
    Autorizacao,
    BloqueioClienteOAuth,
    CodigoAutorizacao,
    FalhaClienteOAuth,
    TokenOAuth,
)
from graphql_api.oauth.schemas import SituacaoApp, TipoApp
from graphql_api.vendedor.models import Vendedor

ATIVO = SituacaoApp.ativo.value


async def app(client_id: str) -> AppOAuth | None:
    return await AppOAuth.get_or_none(id=client_id)


def apps_visible(principal: Principal, integrador_id: str | None = None) -> QuerySet[AppOAuth]:
    """A person sees the apps of their integrator in the session's environment; staff, those of
    the integrator named by `integrador_id` (both environments)."""
    if principal.is_staff:
        return AppOAuth.filter(integrador_id=integrador_id)
    return AppOAuth.filter(**tenant_filter(principal))


async def app_visible(principal: Principal, app_id: str) -> AppOAuth | None:
    scope = AppOAuth.all() if principal.is_staff else apps_visible(principal)
    return await scope.filter(id=app_id).first()


async def redirect_uris_de_apps_publicos_ativos() -> list[str]:
    """Every redirect URI of every active public app, of every integrator and environment."""
    listas = await AppOAuth.filter(tipo=TipoApp.publico.value, situacao=ATIVO).values_list("redirect_uris", flat=True)
    return [uri for lista in listas for uri in lista]


async def travar_integrador(integrador_id: str) -> Integrador | None:
    """Serialises app creations of one integrator until the transaction ends (the limit of
    active apps is counted under this lock, so two creations at once cannot both pass it)."""
    return await Integrador.select_for_update().filter(id=integrador_id).first()


async def count_active(integrador_id: str) -> int:
    return await AppOAuth.filter(integrador_id=integrador_id, situacao=ATIVO).count()


async def travar_app(app_id: str) -> AppOAuth:
    """The app, locked until the transaction ends (serialises rotations of its secret)."""
    return await AppOAuth.select_for_update().get(id=app_id)


async def update_active(app_id: str, **values: Any) -> bool:
    """Change an app only while it is active: a disabled app is never edited nor given a secret,
    even by a request that read it just before it was disabled."""
    return bool(await AppOAuth.filter(id=app_id, situacao=ATIVO).update(**values))


async def nome_do_integrador(integrador_id: str) -> str:
    rows = await Integrador.filter(id=integrador_id).values_list("nome", flat=True)
    return str(rows[0]) if rows else ""


async def conta_do_vendedor(vendedor_id: str, integrador_id: str, ambiente: str) -> Conta | None:
    return await Conta.get_or_none(
        integrador_id=integrador_id, ambiente=ambiente, vendedor_id=vendedor_id, origem="vinculada"
    )


async def travar_vendedor(vendedor_id: str) -> Vendedor:
    """The seller, locked until the transaction ends (serialises the seller's consents)."""
    return await Vendedor.select_for_update().get(id=vendedor_id)


async def autorizacoes_desde(vendedor_id: str, app_id: str, desde: datetime) -> int:
    return await Autorizacao.filter(vendedor_id=vendedor_id, app_id=app_id, criado_em__gte=desde).count()


def _ativas() -> QuerySet[Autorizacao]:
    """Authorisations that exist and have not ended: their code was exchanged, none revoked."""
    return Autorizacao.filter(concedida_em__isnull=False, revogada_em__isnull=True)


async def autorizacoes_ativas_do_vendedor(vendedor_id: str) -> list[dict[str, Any]]:
    return await (
        _ativas()
        .filter(vendedor_id=vendedor_id, app__situacao=ATIVO)
        .order_by("-criado_em")
        .values("app_id", "app__nome", "app__integrador__nome", "ambiente", "conta_id", "escopos", "criado_em")
    )


async def tem_autorizacao_ativa(**filtro: str) -> bool:
    return await _ativas().filter(**filtro).exists()


async def ids_autorizacoes_abertas(**filtro: str) -> list[str]:
    """Authorisations not ended yet, exchanged or with a code still pending."""
    rows = await Autorizacao.filter(revogada_em__isnull=True, **filtro).values_list("id", flat=True)
    return [str(r) for r in rows]


async def revogar(ids: list[str], quando: datetime, motivo: str) -> int:
    return await Autorizacao.filter(id__in=ids, revogada_em__isnull=True).update(
        revogada_em=quando, motivo_revogacao=motivo
    )


@dataclass(frozen=True, slots=True)
class Desvinculo:
    """A linked account paused because its last active authorisation ended."""

    conta_id: str
    app_id: str  # the app whose authorisation ended last
    integrador_id: str
    ambiente: str


async def pausar_contas_sem_autorizacao(ids: list[str], quando: datetime) -> list[Desvinculo]:
    """Pause the active linked accounts of these (just ended) authorisations that have no active
    authorisation left, of any app; each account paused here, once (a conditional update: two
    revocations at once pause it, and tell it, only once)."""
    finais = {
        linha["conta_id"]: linha
        for linha in await Autorizacao.filter(id__in=ids).values("conta_id", "app_id", "integrador_id", "ambiente")
    }
    ainda_ativas = set(await _ativas().filter(conta_id__in=list(finais)).values_list("conta_id", flat=True))
    pausadas = []
    for conta_id, linha in finais.items():
        if conta_id in ainda_ativas:
            continue
        if await Conta.filter(id=conta_id, origem="vinculada", situacao="ativa").update(
            situacao="pausada", atualizado_em=quando
        ):
            pausadas.append(Desvinculo(conta_id, linha["app_id"], linha["integrador_id"], linha["ambiente"]))
    return pausadas


async def codigo(resumo: str) -> CodigoAutorizacao | None:
    return await CodigoAutorizacao.get_or_none(id=resumo).select_related("autorizacao")


async def usar_codigo(resumo: str, quando: datetime) -> bool:
    """Mark the code used; False when another request used it first."""
    return await CodigoAutorizacao.filter(id=resumo, usado_em__isnull=True).update(usado_em=quando) == 1


async def conceder(autorizacao: Autorizacao, quando: datetime) -> bool:
    """The code of a still open authorisation was exchanged: it exists from now on and its linked
    account is active. False when it ended (revoked) meanwhile."""
    concedida = await Autorizacao.filter(id=autorizacao.id, revogada_em__isnull=True, concedida_em__isnull=True).update(
        concedida_em=quando
    )
    if concedida:
        await Conta.filter(id=autorizacao.conta_id).update(situacao="ativa", atualizado_em=quando)
    return bool(concedida)


async def token_de_renovacao(resumo: str) -> TokenOAuth | None:
    return await TokenOAuth.get_or_none(id=resumo, tipo="renovacao").select_related("autorizacao")


async def girar_renovacao(resumo: str, quando: datetime) -> bool:
    """Mark the refresh token rotated; False when another request rotated it first."""
    return await TokenOAuth.filter(id=resumo, usado_em__isnull=True).update(usado_em=quando) == 1


async def autorizacao_do_token(resumo: str) -> Autorizacao | None:
    token = await TokenOAuth.get_or_none(id=resumo).select_related("autorizacao")
    return token.autorizacao if token else None


async def token_de_acesso(resumo: str) -> dict[str, Any] | None:
    """What authenticating an access token needs, in one query (the hot path of OAuth calls)."""
    rows = await TokenOAuth.filter(id=resumo, tipo="acesso").values(
        "escopos",
        "expira_em",
        "autorizacao_id",
        "autorizacao__revogada_em",
        "autorizacao__conta_id",
        "autorizacao__app_id",
        "autorizacao__ambiente",
        "autorizacao__integrador_id",
        "autorizacao__app__situacao",
        "autorizacao__conta__situacao",
        *(f"autorizacao__conta__integrador__{coluna}" for coluna in situacao.COLUNAS),
    )
    return rows[0] if rows else None


async def contar_falha(app_id: str, origem: str, quando: datetime, desde: datetime) -> int:
    """Record a failed authentication of the app from this address; its failures from there since
    `desde`, this one included."""
    await FalhaClienteOAuth.create(app_id=app_id, origem=origem, criado_em=quando)
    return await FalhaClienteOAuth.filter(app_id=app_id, origem=origem, criado_em__gte=desde).count()


async def bloquear(app_id: str, origem: str, ate: datetime) -> None:
    await BloqueioClienteOAuth.update_or_create(defaults={"ate": ate}, app_id=app_id, origem=origem)


async def bloqueado_ate(app_id: str, origem: str, agora: datetime) -> datetime | None:
    """When the block of the app for this address ends; None when it is not blocked."""
    bloqueio = await BloqueioClienteOAuth.filter(app_id=app_id, origem=origem, ate__gt=agora).first()
    return bloqueio.ate if bloqueio else None


async def expurgar(
    purge: Purge, codigos_antes: datetime, tokens_antes: datetime, falhas_antes: datetime
) -> tuple[int, int, int]:
    """Codes and tokens expired before these moments, failures outside the counting window and
    blocks ended before it."""
    # Codes live minutes (a few per sign-in to an app): a small table, walked by its key.
    codigos = await purge.delete(CodigoAutorizacao.filter(expira_em__lt=codigos_antes), "id")
    tokens = await purge.delete(TokenOAuth.filter(expira_em__lt=tokens_antes), "expira_em")
    falhas = await purge.delete(FalhaClienteOAuth.filter(criado_em__lt=falhas_antes), "criado_em")
    falhas += await purge.delete(BloqueioClienteOAuth.filter(ate__lt=falhas_antes), "ate")
    return codigos, tokens, falhas
