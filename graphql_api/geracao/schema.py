import strawberry
from strawberry.types import Info

from graphql_api.core.permissions import requires
from graphql_api.geracao import service
from graphql_api.geracao.types import GeracaoType


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("geracoes:ler"))
    async def geracao(self, info: Info, id: strawberry.ID) -> GeracaoType:
        geracao = await service.obter_geracao(info.context.principal, id)
        return GeracaoType.from_model(geracao, info.context.runtime.storage)
