"""Who is calling: built once at the edge (API key, OAuth token, portal session, staff token)
and carried in the GraphQL context. Every authorisation decision reads it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Ambiente(str, Enum):
    TESTE = "teste"
    PRODUCAO = "producao"


class CredentialKind(str, Enum):
    API_KEY = "api_key"
    OAUTH = "oauth"
    PORTAL = "portal"
    STAFF = "staff"
    VENDEDOR = "vendedor"  # a seller's session on the consent and "Apps conectados" pages


# Scopes of the contract. The integrator's own key holds all of them.
OAUTH_SCOPES = frozenset({"contas:ler", "produtos:ler", "produtos:escrever", "geracoes:ler", "geracoes:criar"})
INTEGRATOR_ONLY_SCOPES = frozenset({"contas:escrever", "creditos:ler", "creditos:comprar", "avisos:gerenciar"})
ALL_SCOPES = OAUTH_SCOPES | INTEGRATOR_ONLY_SCOPES

# What only people in the portal do; API keys never hold these (keys and the team are managed in
# the portal, never through the API they protect).
PORTAL_SCOPES = frozenset(
    {"chaves:gerenciar", "usuarios:gerenciar", "chamadas:ler", "emails:ler", "contrato:aceitar", "apps:gerenciar"}
)


class Papel(str, Enum):
    """Roles of the people of an integrator (docs/portal.md explains each)."""

    DONO = "dono"
    DESENVOLVEDOR = "desenvolvedor"
    FINANCEIRO = "financeiro"


# A portal session's scopes come from the role of its person.
ROLE_SCOPES: dict[Papel, frozenset[str]] = {
    Papel.DONO: ALL_SCOPES | PORTAL_SCOPES,
    Papel.DESENVOLVEDOR: (ALL_SCOPES - {"creditos:comprar"})
    | {"chaves:gerenciar", "chamadas:ler", "emails:ler", "apps:gerenciar"},
    Papel.FINANCEIRO: frozenset(
        {"contas:ler", "produtos:ler", "geracoes:ler", "creditos:ler", "creditos:comprar", "emails:ler"}
    ),
}


@dataclass(frozen=True, slots=True)
class Principal:
    kind: CredentialKind
    ambiente: Ambiente
    scopes: frozenset[str]
    integrador_id: str | None = None
    chave_id: str | None = None  # the 12-character identifier of an API key
    conta_id: str | None = None  # the one linked account of an OAuth token
    client_id: str | None = None  # the app (app_…) an OAuth token was issued to
    ator_id: str | None = None  # portal user, staff member or seller (vnd_), for audit
    # Portal only: the person typed the password again a few minutes ago (docs/portal.md).
    reautenticado: bool = False

    @property
    def is_integrator(self) -> bool:
        """The integrator itself (API key or portal), as opposed to an OAuth grant or staff."""
        return self.kind in (CredentialKind.API_KEY, CredentialKind.PORTAL)

    @property
    def integrador_exigido(self) -> str:
        """The integrator of a principal that must have one (API key, portal session): callers
        reached only through `requires(integrator_only/portal_only)`."""
        if self.integrador_id is None:
            raise RuntimeError(f"{self.kind} principal without an integrator")
        return self.integrador_id

    @property
    def ator_exigido(self) -> str:
        """The person or staff member acting: callers reached only through `requires(portal_only)`."""
        if self.ator_id is None:
            raise RuntimeError(f"{self.kind} principal without an actor")
        return self.ator_id

    @property
    def is_staff(self) -> bool:
        return self.kind is CredentialKind.STAFF

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes

    def has_portal_scope(self, scope: str) -> bool:
        """Portal-only rights: a person needs the role for them; an API key keeps what the
        contract gives the integrator's key (e.g. the call log)."""
        return self.kind is not CredentialKind.PORTAL or scope in self.scopes
