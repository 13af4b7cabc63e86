from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires, staff_only
from graphql_api.recarga import service
from graphql_api.recarga.schemas import NovaRecarga
from graphql_api.recarga.types import PacoteType, RecargaType


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def pacotes(self, info: Info) -> list[PacoteType]:
        return [PacoteType.from_model(p) for p in await service.listar_pacotes()]

    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def recargas(
        self, info: Info, limite: int | None = None, cursor: str | None = None, situacao: str | None = None
    ) -> Pagina[RecargaType]:
        page = PageRequest.of(limite, cursor, prefixo="rec_")
        rows, next_cursor = await service.listar_recargas(info.context.principal, page, situacao=situacao)
        return pagina([RecargaType.from_model(r, info.context.settings) for r in rows], page, next_cursor)

    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def recarga(self, info: Info, id: strawberry.ID) -> RecargaType:
        return RecargaType.from_model(await service.obter_recarga(info.context.principal, id), info.context.settings)

    @strawberry.field(extensions=requires("creditos:comprar", portal_only=True))
    async def checkout(self, info: Info, id: strawberry.ID) -> RecargaType:
        """The purchase the checkout page shows: any of the person's integrator, in either environment."""
        return RecargaType.from_model(
            await service.obter_no_checkout(info.context.principal, id), info.context.settings
        )


NovaRecargaInput = input_type(NovaRecarga)


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires("creditos:comprar", integrator_only=True))
    async def criar_recarga(
        self, info: Info, dados: Annotated[Any, strawberry.argument(graphql_type=NovaRecargaInput)]
    ) -> RecargaType:
        recarga = await service.criar_recarga(info.context.principal, as_dados(dados), info.context.settings)
        return RecargaType.from_model(recarga, info.context.settings)

    @strawberry.mutation(extensions=requires("creditos:comprar", portal_only=True))
    async def resolver_checkout(self, info: Info, id: strawberry.ID, pagar: bool) -> RecargaType:
        """The checkout page's buttons: Pagar (test purchases: play money) or Recusar."""
        recarga = await service.resolver_no_checkout(info.context.principal, id, pagar=pagar)
        return RecargaType.from_model(recarga, info.context.settings)

    @strawberry.mutation(extensions=staff_only())
    async def confirmar_recarga(
        self, info: Info, id: strawberry.ID, recusar: bool = False, referencia: str | None = None
    ) -> RecargaType:
        """Staff: confirm an offline payment (PIX, bank slip) of a purchase, or refuse it."""
        principal = info.context.require_principal()
        assert principal.ator_id is not None  # a staff principal names its member
        recarga = await service.confirmar_pela_equipe(principal.ator_id, id, recusar=recusar, referencia=referencia)
        return RecargaType.from_model(recarga, info.context.settings)
