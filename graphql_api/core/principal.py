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


# Scopes of the contract. The integrator's own key holds all of them.
OAUTH_SCOPES = frozenset(
    {"contas:ler", "produtos:ler", "produtos:escrever", "geracoes:ler", "geracoes:criar"}
)
INTEGRATOR_ONLY_SCOPES = frozenset(
    {"contas:escrever", "creditos:ler", "creditos:comprar", "avisos:gerenciar"}
)
ALL_SCOPES = OAUTH_SCOPES | INTEGRATOR_ONLY_SCOPES


@dataclass(frozen=True, slots=True)
class Principal:
    kind: CredentialKind
    ambiente: Ambiente
    scopes: frozenset[str]
    integrador_id: str | None = None
    chave_id: str | None = None  # the 12-character identifier of an API key
    conta_id: str | None = None  # the one linked account of an OAuth token
    ator_id: str | None = None  # portal user or staff member, for audit

    @property
    def is_integrator(self) -> bool:
        """The integrator itself (API key or portal), as opposed to an OAuth grant or staff."""
        return self.kind in (CredentialKind.API_KEY, CredentialKind.PORTAL)

    @property
    def is_staff(self) -> bool:
        return self.kind is CredentialKind.STAFF

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes
