"""Declarative permissions for schema fields: scopes, integrator-only routes, staff, sellers.

`requires(...)` guards the integrator's fields: a seller's session never passes it, whatever the
other checks say (a seller has no scopes, but `requires()` alone or `portal_scope` would let any
principal through). Sellers reach only `vendedor_only()` fields and public ones."""

from __future__ import annotations

from typing import Any

from strawberry.extensions.field_extension import FieldExtension
from strawberry.permission import BasePermission, PermissionExtension
from strawberry.types import Info

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.principal import CredentialKind, Principal


class _Permission(BasePermission):
    # Instances are shared by every request: keep them free of per-request state.
    def on_unauthorized(self) -> None:
        raise ApiError("FORBIDDEN", description=self.message)


class IsAuthenticated(_Permission):
    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        info.context.require_principal()  # raises UNAUTHORIZED
        return True


def falta_escopo(principal: Principal, scope: str) -> ApiError:
    """403 FORBIDDEN for a credential without `scope`. For an OAuth token `fields` names the
    missing scope (campo escopos, codigo the scope), as INTEGRATION_STEPS_PENDING names each
    step: the app knows what to ask the seller for."""
    if principal.kind is not CredentialKind.OAUTH:
        return ApiError("FORBIDDEN", description=f"A credencial não tem o escopo {scope}.")
    return ApiError(
        "FORBIDDEN",
        description=f"O token OAuth não tem o escopo {scope}, que esta operação exige.",
        fields=[
            FieldError(
                "escopos",
                scope,
                f"Peça ao vendedor o escopo {scope}: inclua-o no parâmetro scope da autorização "
                "(/oauth/autorizar) e use o token da nova autorização.",
            )
        ],
    )


def exigir_escopo(principal: Principal, scope: str) -> None:
    """The same rule as `requires(scope)`, for a scope that depends on the arguments."""
    if not principal.has_scope(scope):
        raise falta_escopo(principal, scope)


class HasScope(_Permission):
    """The caller's credential carries `scope` (API keys carry all; OAuth tokens what was granted)."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        self.message = f"A credencial não tem o escopo {scope}."

    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        exigir_escopo(info.context.require_principal(), self.scope)
        return True


class HasPortalScope(_Permission):
    """A right of the portal roles (Principal.has_portal_scope); other credentials pass."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        self.message = f"O seu papel no integrador não permite esta operação ({scope})."

    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        return info.context.require_principal().has_portal_scope(self.scope)


class PortalOnly(_Permission):
    """Operations on people and API keys: only a signed-in person of the portal."""

    message = "Operação disponível apenas no portal, para pessoas com sessão aberta."

    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        return info.context.require_principal().kind is CredentialKind.PORTAL


class NotVendedor(_Permission):
    """The integrator's side of the schema: a seller's session is refused."""

    message = "Uma sessão de vendedor não tem acesso a esta operação, que é do integrador."

    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        return info.context.require_principal().kind is not CredentialKind.VENDEDOR


class VendedorOnly(_Permission):
    """A seller's own fields: only a signed-in seller; integrators (keys, OAuth tokens, portal) are refused."""

    message = "Operação disponível apenas para vendedores com sessão aberta."

    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        return info.context.require_principal().kind is CredentialKind.VENDEDOR


class IntegratorOnly(_Permission):
    """Routes the contract reserves to the integrator: an OAuth token gets 403 FORBIDDEN."""

    message = (
        "Esta rota é exclusiva do integrador: use a chave de API (sk_test_…/sk_live_…). "
        "Tokens OAuth agem só na conta vinculada, nas rotas dos escopos concedidos."
    )

    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        exigir_integrador(info.context.require_principal())
        return True


def exigir_integrador(principal: Principal) -> None:
    """The same rule as `requires(integrator_only=True)`, for a door that decides before the body."""
    if not principal.is_integrator:
        raise ApiError("FORBIDDEN", description=IntegratorOnly.message)


class IntegratorOrStaff(_Permission):
    """Facts both sides read (the current contract): the integrator and the service's staff."""

    message = "Disponível para o integrador e para a equipe do serviço; tokens OAuth não têm acesso."

    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        principal = info.context.require_principal()
        return principal.is_integrator or principal.is_staff


class PortalOrStaff(_Permission):
    """Configuration people read in the portal and staff read for support (OAuth apps): no API key."""

    message = "Disponível para as pessoas do integrador no portal e para a equipe do serviço."

    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        principal = info.context.require_principal()
        return principal.kind is CredentialKind.PORTAL or principal.is_staff


class StaffOnly(_Permission):
    message = "Operação exclusiva da equipe do serviço."

    def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        return info.context.require_principal().is_staff


def requires(
    *scopes: str, integrator_only: bool = False, portal_scope: str | None = None, portal_only: bool = False
) -> list[FieldExtension]:
    """Field extensions for `@strawberry.field(extensions=requires(...))`. `portal_only` fields
    take their scopes from the person's role (PORTAL_SCOPES); `portal_scope` restricts people by
    role while API keys keep the route."""
    checks: list[BasePermission] = [IsAuthenticated(), NotVendedor()]
    if portal_only:
        checks.append(PortalOnly())
    if integrator_only:
        checks.append(IntegratorOnly())
    # Behind PortalOnly every caller is a person: say "your role", not "your credential".
    checks.extend(HasPortalScope(s) if portal_only else HasScope(s) for s in scopes)
    if portal_scope is not None:
        checks.append(HasPortalScope(portal_scope))
    return [PermissionExtension(permissions=checks, use_directives=False)]


def staff_only() -> list[FieldExtension]:
    return [PermissionExtension(permissions=[StaffOnly()], use_directives=False)]


def vendedor_only() -> list[FieldExtension]:
    return [PermissionExtension(permissions=[IsAuthenticated(), VendedorOnly()], use_directives=False)]


def integrator_or_staff() -> list[FieldExtension]:
    return [PermissionExtension(permissions=[IsAuthenticated(), IntegratorOrStaff()], use_directives=False)]


def portal_or_staff() -> list[FieldExtension]:
    return [PermissionExtension(permissions=[IsAuthenticated(), PortalOrStaff()], use_directives=False)]


def exigir_reautenticacao(principal: Principal) -> None:
    """Sensitive portal operations (live keys, notice secrets, the contract) need the password
    typed a moment ago. API keys and staff tokens belong to servers: there is no password to ask."""
    if principal.kind is CredentialKind.PORTAL and not principal.reautenticado:
        raise ApiError("REAUTHENTICATION_REQUIRED")
