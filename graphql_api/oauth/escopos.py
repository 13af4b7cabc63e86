"""The scopes an OAuth app may ask a seller for, as the consent screen says them."""

from __future__ import annotations

from graphql_api.core.principal import OAUTH_SCOPES

# In the order the consent screen lists them; every OAuth scope of the contract, none other.
DESCRICOES: dict[str, str] = {
    "contas:ler": "Ver o nome e a situação da sua conta",
    "produtos:ler": "Ver as fichas dos seus produtos e o resultado das conferências",
    "produtos:escrever": "Enviar e remover fichas de produtos na sua conta",
    "geracoes:ler": "Ver e baixar as imagens e os vídeos gerados para os seus produtos",
    "geracoes:criar": "Pedir galerias, vídeos e edições de imagem (pagos pelo integrador, não por você)",
}
assert set(DESCRICOES) == OAUTH_SCOPES


def ordenados(escopos: set[str] | frozenset[str] | list[str]) -> list[str]:
    """Scopes in the catalogue's order (responses and pages always list them the same way)."""
    return [e for e in DESCRICOES if e in escopos]


def como_texto(escopos: set[str] | frozenset[str] | list[str]) -> str:
    """The space-separated `scope` of OAuth messages."""
    return " ".join(ordenados(escopos))
