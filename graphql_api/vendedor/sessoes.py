"""Sellers' sign-in and sessions: the same rules and the same code as the portal's people
(graphql_api/usuario/autenticacao.py `Entrada`, graphql_api/usuario/sessoes.py `Sessoes`), with a
table and a cookie of their own. A seller's session is never a portal session, nor the reverse."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graphql_api.core.principal import Ambiente, CredentialKind, Principal
from graphql_api.core.purge import Purge
from graphql_api.core.relogio import agora
from graphql_api.usuario.autenticacao import Entrada
from graphql_api.usuario.sessoes import Sessoes
from graphql_api.vendedor import repository
from graphql_api.vendedor.models import SessaoVendedor, Vendedor

VENDEDORES: Entrada[Vendedor] = Entrada("vendedor", repository.by_email)
SESSOES = Sessoes(SessaoVendedor, "vendedor_id", repository.SESSION_FIELDS, repository.touch)


@dataclass(frozen=True, slots=True)
class SessaoVendedorAtiva:
    """A valid seller session, as each seller page sees it."""

    id: str  # the SHA-256 of the cookie value
    vendedor_id: str
    nome: str  # the store's name
    email: str

    def principal(self) -> Principal:
        # No scopes: a seller reaches only the fields made for sellers (permissions.vendedor_only).
        return Principal(
            kind=CredentialKind.VENDEDOR, ambiente=Ambiente.TESTE, scopes=frozenset(), ator_id=self.vendedor_id
        )


async def verificar_senha(email: str, senha: str, *, ip: str) -> Vendedor:
    return await VENDEDORES.verificar_senha(email, senha, ip=ip)


async def abrir_sessao(vendedor_id: str, *, ip: str, agente: str, anterior: str | None = None) -> str:
    return await SESSOES.abrir(vendedor_id, ip=ip, agente=agente, anterior=anterior)


async def sessao_ativa(token: str) -> SessaoVendedorAtiva | None:
    row = await SESSOES.ler(token)
    if row is None:
        return None
    return SessaoVendedorAtiva(
        id=row["id"], vendedor_id=row["vendedor_id"], nome=row["vendedor__nome"], email=row["vendedor__email"]
    )


async def encerrar_sessao(token: str) -> None:
    await SESSOES.encerrar(token)


async def expurgar(now: datetime | None = None, purge: Purge | None = None) -> int:
    """Expired seller sessions (the failed sign-ins go with the portal's, in usuario.sessoes.expurgar)."""
    return await SESSOES.expurgar(now or agora(), purge or Purge())
