"""Sellers. Sign-up is public (no session yet); the seller's own fields need a seller's session
(permissions.vendedor_only). Sign-in and the session are authentication at the edge (the portal
calls graphql_api/vendedor/sessoes.py), as for the portal's people."""

from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.permissions import vendedor_only
from graphql_api.vendedor import cadastro, service
from graphql_api.vendedor.schemas import CadastroVendedor
from graphql_api.vendedor.types import VendedorType

CadastroVendedorInput = input_type(CadastroVendedor)


@strawberry.type
class Query:
    @strawberry.field(extensions=vendedor_only(), description="The signed-in seller.")
    async def vendedor_atual(self, info: Info) -> VendedorType:
        return VendedorType.from_model(await service.atual(info.context.principal))


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Public: a new seller (no session needed), who can sign in at once.")
    async def cadastrar_vendedor(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=CadastroVendedorInput)]
    ) -> VendedorType:
        return VendedorType.from_model(await cadastro.cadastrar(as_dados(dados)))
