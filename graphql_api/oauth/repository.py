"""Queries of the OAuth domain: apps (graphql_api/oauth/apps.py)."""

from __future__ import annotations

from typing import Any

from tortoise.queryset import QuerySet

from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import tenant_filter
from graphql_api.integrador.models import Integrador
from graphql_api.oauth.models import AppOAuth
from graphql_api.oauth.schemas import SituacaoApp

ATIVO = SituacaoApp.ativo.value


def apps_visible(principal: Principal, integrador_id: str | None = None) -> QuerySet[AppOAuth]:
    """A person sees the apps of their integrator in the session's environment; staff, those of
    the integrator named by `integrador_id` (both environments)."""
    if principal.is_staff:
        return AppOAuth.filter(integrador_id=integrador_id)
    return AppOAuth.filter(**tenant_filter(principal))


async def app_visible(principal: Principal, app_id: str) -> AppOAuth | None:
    scope = AppOAuth.all() if principal.is_staff else apps_visible(principal)
    return await scope.filter(id=app_id).first()


async def app(app_id: str) -> AppOAuth | None:
    """An app by its client_id, whatever its integrator (the OAuth endpoints start here)."""
    return await AppOAuth.get_or_none(id=app_id)


async def lock_integrator(integrador_id: str) -> Integrador | None:
    """Serialises app creations of one integrator until the transaction ends (the limit of
    active apps is counted under this lock, so two creations at once cannot both pass it)."""
    return await Integrador.select_for_update().filter(id=integrador_id).first()


async def count_active(integrador_id: str) -> int:
    return await AppOAuth.filter(integrador_id=integrador_id, situacao=ATIVO).count()


async def update_active(app_id: str, **values: Any) -> bool:
    """Change an app only while it is active: a disabled app is never edited nor given a secret,
    even by a request that read it just before it was disabled."""
    return bool(await AppOAuth.filter(id=app_id, situacao=ATIVO).update(**values))
