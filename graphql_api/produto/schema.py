from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires
from graphql_api.produto import service
from graphql_api.produto.schemas import Ficha
from graphql_api.produto.types import ProdutoType


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("produtos:ler"))
    async def produto(self, info: Info, conta_id: str, codigo: str) -> ProdutoType:
        return ProdutoType.from_model(await service.obter_produto(info.context.principal, conta_id, codigo))

    @strawberry.field(extensions=requires("produtos:ler"))
    async def produtos(
        self,
        info: Info,
        conta_id: str,
        limite: int | None = None,
        cursor: str | None = None,
        situacao: str | None = None,
    ) -> Pagina[ProdutoType]:
        page = PageRequest.of(limite, cursor, prefixo="prd_")
        rows, next_cursor = await service.listar_produtos(info.context.principal, conta_id, page, situacao=situacao)
        return pagina([ProdutoType.from_model(p) for p in rows], page, next_cursor)


FichaInput = input_type(Ficha)


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires("produtos:escrever"))
    async def salvar_ficha(
        self,
        info: Info,
        conta_id: str,
        codigo: str,
        ficha: Annotated[Any, strawberry.argument(graphql_type=FichaInput)],
    ) -> ProdutoType:
        produto = await service.salvar_ficha(info.context.principal, conta_id, codigo, as_dados(ficha))
        return ProdutoType.from_model(produto)

    @strawberry.mutation(extensions=requires("produtos:escrever"))
    async def excluir_ficha(self, info: Info, conta_id: str, codigo: str) -> strawberry.ID:
        """Deletes the product; returns its id."""
        return strawberry.ID((await service.excluir_ficha(info.context.principal, conta_id, codigo)).id)
