import strawberry
from strawberry.types import Info

from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires
from graphql_api.creditos import service
from graphql_api.creditos.precos import PRECOS
from graphql_api.creditos.types import LancamentoType, PrecoType, SaldoType


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def saldo(self, info: Info) -> SaldoType:
        return SaldoType.from_model(await service.obter_saldo(info.context.principal))

    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def extrato(self, info: Info, limite: int | None = None, cursor: str | None = None) -> Pagina[LancamentoType]:
        page = PageRequest.of(limite, cursor, prefixo="lan_")
        rows, next_cursor = await service.extrato(info.context.principal, page)
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
