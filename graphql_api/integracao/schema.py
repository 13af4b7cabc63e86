import strawberry
from strawberry.types import Info

from graphql_api.core.permissions import requires
from graphql_api.integracao import service
from graphql_api.integracao.types import StatusType


@strawberry.type
class Query:
    @strawberry.field(extensions=requires(integrator_only=True))
    async def integracao_status(self, info: Info) -> StatusType:
        status = await service.status(info.context.principal)
        return StatusType.from_status(status, info.context.settings.docs_url)


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires(integrator_only=True))
    async def pedir_producao(self, info: Info) -> StatusType:
        status = await service.pedir_producao(info.context.principal)
        return StatusType.from_status(status, info.context.settings.docs_url)
