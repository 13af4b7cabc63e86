import strawberry
from strawberry.types import Info

from graphql_api.core.permissions import requires
from graphql_api.creditos import service
from graphql_api.creditos.types import SaldoType


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def saldo(self, info: Info) -> SaldoType:
        return SaldoType.from_model(await service.obter_saldo(info.context.principal))
