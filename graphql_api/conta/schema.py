from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.conta import service
from graphql_api.conta.schemas import NovaConta
from graphql_api.conta.types import ContaType
from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("contas:ler"))
    async def conta(self, info: Info, id: strawberry.ID) -> ContaType:
        return ContaType.from_model(await service.obter_conta(info.context.principal, id))

    @strawberry.field(extensions=requires("contas:ler"))
    async def contas(
        self,
        info: Info,
        limite: int | None = None,
        cursor: str | None = None,
        codigo_externo: str | None = None,
        origem: str | None = None,
        situacao: str | None = None,
    ) -> Pagina[ContaType]:
        page = PageRequest.of(limite, cursor, prefixo="cta_")
        rows, next_cursor = await service.listar_contas(
            info.context.principal,
            page,
            codigo_externo=codigo_externo,
            origem=origem,
            situacao=situacao,
        )
        return pagina([ContaType.from_model(c) for c in rows], page, next_cursor)


NovaContaInput = input_type(NovaConta)


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires("contas:escrever", integrator_only=True))
    async def criar_conta(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=NovaContaInput)]
    ) -> ContaType:
        return ContaType.from_model(await service.criar_conta(info.context.principal, as_dados(dados)))
