"""Tenant scoping: every read and write is confined to the caller's integrator and environment,
and an OAuth token further to its one linked account."""

from __future__ import annotations

from typing import Any

from graphql_api.core.principal import Principal


def tenant_filter(principal: Principal) -> dict[str, Any]:
    return {"integrador_id": principal.integrador_id, "ambiente": principal.ambiente.value}


def account_filter(principal: Principal, field: str = "conta_id") -> dict[str, Any]:
    scope = tenant_filter(principal)
    if principal.conta_id is not None:
        scope[field] = principal.conta_id
    return scope


def can_see(principal: Principal, row: Any, field: str = "conta_id") -> bool:
    """The same rule as account_filter, for a row already read by its primary key."""
    if row.integrador_id != principal.integrador_id or row.ambiente != principal.ambiente.value:
        return False
    return principal.conta_id is None or getattr(row, field) == principal.conta_id
