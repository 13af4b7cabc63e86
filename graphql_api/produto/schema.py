import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from graphql_api.core.permissions import requires
from graphql_api.produto import service
from graphql_api.produto.types import ProdutoType


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires("produtos:escrever"))
    async def salvar_ficha(self, info: Info, conta_id: str, codigo: str, ficha: JSON) -> ProdutoType:
        produto = await service.salvar_ficha(info.context.principal, conta_id, codigo, ficha)
        return ProdutoType.from_model(produto)
