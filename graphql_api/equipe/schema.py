"""Staff-only fields of the internal API, served at /graphql to staff tokens only."""

import strawberry
from strawberry.types import Info

from graphql_api.core.permissions import staff_only
from graphql_api.equipe import service
from graphql_api.equipe.types import AcaoType, IntegradorType
from graphql_api.integracao.types import ContratoType
from graphql_api.integrador.models import Integrador


@strawberry.type
class Query:
    @strawberry.field(extensions=staff_only())
    async def integrador(self, info: Info, id: str) -> IntegradorType | None:
        row = await Integrador.get_or_none(id=id)
        return IntegradorType.from_model(row) if row else None

    @strawberry.field(extensions=staff_only())
    async def acoes_equipe(self, info: Info, limite: int = 50) -> list[AcaoType]:
        return [
            AcaoType(membro_id=a.membro_id, acao=a.acao, alvo=a.alvo, motivo=a.motivo, em=a.em)
            for a in await service.acoes(limite)
        ]


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=staff_only())
    async def pausar_integrador(self, info: Info, id: str, motivo: str) -> IntegradorType:
        row = await service.pausar_integrador(info.context.principal, id, motivo, bus=info.context.runtime.bus)
        return IntegradorType.from_model(row)

    @strawberry.mutation(extensions=staff_only())
    async def retomar_integrador(self, info: Info, id: str) -> IntegradorType:
        row = await service.retomar_integrador(info.context.principal, id, bus=info.context.runtime.bus)
        return IntegradorType.from_model(row)

    @strawberry.mutation(extensions=staff_only())
    async def suspender_producao(self, info: Info, id: str, motivo: str) -> IntegradorType:
        row = await service.suspender_producao(info.context.principal, id, motivo, bus=info.context.runtime.bus)
        return IntegradorType.from_model(row)

    @strawberry.mutation(extensions=staff_only())
    async def restaurar_producao(self, info: Info, id: str) -> IntegradorType:
        row = await service.restaurar_producao(info.context.principal, id, bus=info.context.runtime.bus)
        return IntegradorType.from_model(row)

    @strawberry.mutation(extensions=staff_only())
    async def publicar_contrato(self, info: Info, titulo: str, texto: str) -> ContratoType:
        return ContratoType.from_model(await service.publicar_contrato(info.context.principal, titulo, texto))
