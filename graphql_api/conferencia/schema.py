import strawberry
from strawberry.types import Info

from graphql_api.conferencia import service
from graphql_api.conferencia.types import ConferenciaType
from graphql_api.core.permissions import exigir_escopo, requires


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("produtos:ler"))
    async def conferencia(self, info: Info, produto_id: str) -> ConferenciaType | None:
        """The latest check of the product's current version (none yet: null); unlike the POST,
        it never starts one."""
        conferencia = await service.ultima(info.context.principal, produto_id)
        return ConferenciaType.from_model(conferencia) if conferencia is not None else None


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires("produtos:ler"))
    async def conferir_produto(self, info: Info, produto_id: str, refazer: bool = False) -> ConferenciaType:
        """The check of the product's current version; a new run when it is missing or failed,
        or when `refazer` asks for one. Reading is produtos:ler; forcing a new run spends one of
        the product's 10 checks a day, which the ficha's own versions need: produtos:escrever."""
        if refazer:
            exigir_escopo(info.context.require_principal(), "produtos:escrever")
        return ConferenciaType.from_model(await service.conferir(info.context.principal, produto_id, refazer=refazer))
