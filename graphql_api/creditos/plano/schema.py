"""Plans: the catalogue, the environment's plan and quota (the integrator's, API key or portal),
plan changes (the portal's people with creditos:comprar); the staff's tools are in
graphql_api/equipe/schema.py."""

from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.permissions import requires, staff_only
from graphql_api.creditos.plano import service
from graphql_api.creditos.plano.models import Plano
from graphql_api.creditos.plano.schemas import MudancaPlano
from graphql_api.creditos.plano.types import CotaType, PlanoAtualType, PlanoType

MudancaPlanoInput = input_type(MudancaPlano)


@strawberry.type
class Query:
    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def planos(self, info: Info) -> list[PlanoType]:
        return [PlanoType.from_model(p) for p in await service.listar_planos()]

    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def plano(self, info: Info) -> PlanoAtualType:
        principal = info.context.principal
        return PlanoAtualType.from_value(
            await service.plano_atual(principal.integrador_exigido, principal.ambiente.value)
        )

    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def cota_do_mes(self, info: Info) -> CotaType:
        principal = info.context.principal
        return CotaType.from_value(await service.cota_do_mes(principal.integrador_exigido, principal.ambiente.value))

    @strawberry.field(extensions=staff_only(), description="Equipe: o catálogo, com as versões antigas se pedido.")
    async def catalogo_planos(self, info: Info, todas_versoes: bool = False) -> list[PlanoType]:
        rows = await (Plano.all().order_by("ordem", "codigo", "versao") if todas_versoes else service.listar_planos())
        return [PlanoType.from_model(p) for p in rows]


@strawberry.type
class Mutation:
    @strawberry.mutation(
        extensions=requires("creditos:comprar", portal_only=True),
        description="Muda o plano do ambiente: um plano maior vale na hora, um menor no próximo ciclo.",
    )
    async def mudar_plano(
        self, info: Info, entrada: Annotated[Any, strawberry.argument(graphql_type=MudancaPlanoInput)]
    ) -> PlanoAtualType:
        atual = await service.mudar_meu_plano(info.context.principal, as_dados(entrada), bus=info.context.runtime.bus)
        return PlanoAtualType.from_value(atual)

    @strawberry.mutation(
        extensions=requires("creditos:comprar", portal_only=True),
        description="Cancela a mudança para um plano menor agendada para o próximo ciclo.",
    )
    async def cancelar_mudanca_plano(self, info: Info) -> PlanoAtualType:
        principal = info.context.principal
        atual = await service.cancelar_mudanca(principal.integrador_exigido, principal.ambiente.value)
        return PlanoAtualType.from_value(atual)
