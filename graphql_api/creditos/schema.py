from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires
from graphql_api.core.validation import validate
from graphql_api.creditos import service
from graphql_api.creditos.precos import PRECOS
from graphql_api.creditos.schemas import FiltroExtrato
from graphql_api.creditos.types import LancamentoType, PrecoType, SaldoType

FiltroExtratoInput = input_type(FiltroExtrato)


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def saldo(self, info: Info) -> SaldoType:
        return SaldoType.from_model(await service.obter_saldo(info.context.principal))

    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def extrato(
        self,
        info: Info,
        filtros: Annotated[Any, strawberry.argument(graphql_type=FiltroExtratoInput | None)] = None,
        limite: int | None = None,
        cursor: str | None = None,
    ) -> Pagina[LancamentoType]:
        page = PageRequest.of(limite, cursor, prefixo="lan_")
        filtro = validate(FiltroExtrato, as_dados(filtros) or {})
        rows, next_cursor = await service.extrato(info.context.principal, filtro, page)
        return pagina([LancamentoType.from_model(r) for r in rows], page, next_cursor)

    @strawberry.field(extensions=requires())
    def precos(self, info: Info) -> list[PrecoType]:
        return [
            PrecoType(tipo=p.tipo, creditos=p.creditos, unidade=p.unidade, descricao=p.descricao)
            for p in PRECOS.values()
        ]


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires("creditos:comprar", integrator_only=True))
    async def recarregar_teste(self, info: Info) -> SaldoType:
        return SaldoType.from_model(await service.recarregar_teste(info.context.principal))
