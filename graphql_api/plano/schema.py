"""Plans: the catalogue, the environment's plan and quota (the integrator's, API key or portal),
plan changes (the portal's people with creditos:comprar) and the staff's tools."""

from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.permissions import requires, staff_only
from graphql_api.creditos.types import SaldoType
from graphql_api.equipe import service as equipe
from graphql_api.plano import service
from graphql_api.plano.models import Plano
from graphql_api.plano.schemas import AjusteCreditos, MudancaPlano, NovaVersaoPlano
from graphql_api.plano.types import CotaType, PlanoAtualType, PlanoType

MudancaPlanoInput = input_type(MudancaPlano)
NovaVersaoPlanoInput = input_type(NovaVersaoPlano)
AjusteCreditosInput = input_type(AjusteCreditos)


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

    @strawberry.field(extensions=staff_only(), description="Equipe: o plano de um integrador num ambiente.")
    async def plano_integrador(self, info: Info, integrador_id: str, ambiente: str) -> PlanoAtualType:
        from graphql_api.core.validation import exigir_aceito
        from graphql_api.integrador import service as integradores

        exigir_aceito("ambiente", ambiente, ("teste", "producao"))
        integrador = await integradores.obter(integrador_id)
        return PlanoAtualType.from_value(await service.plano_atual(integrador.id, ambiente))


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

    @strawberry.mutation(extensions=staff_only())
    async def mudar_plano_integrador(
        self, info: Info, integrador_id: str, ambiente: str, plano: str, motivo: str | None = None
    ) -> PlanoAtualType:
        atual = await equipe.mudar_plano_integrador(
            info.context.principal, integrador_id, ambiente, plano, motivo, bus=info.context.runtime.bus
        )
        return PlanoAtualType.from_value(atual)

    @strawberry.mutation(extensions=staff_only())
    async def cancelar_mudanca_plano_integrador(self, info: Info, integrador_id: str, ambiente: str) -> PlanoAtualType:
        return PlanoAtualType.from_value(
            await equipe.cancelar_mudanca_plano(info.context.principal, integrador_id, ambiente)
        )

    @strawberry.mutation(
        extensions=staff_only(),
        description="Publica uma nova versão de um plano (ou um plano novo, com todos os campos); "
        "os assinantes passam para ela no próximo ciclo.",
    )
    async def publicar_versao_plano(
        self, info: Info, entrada: Annotated[Any, strawberry.argument(graphql_type=NovaVersaoPlanoInput)]
    ) -> PlanoType:
        return PlanoType.from_model(await equipe.publicar_versao_plano(info.context.principal, as_dados(entrada)))

    @strawberry.mutation(
        extensions=staff_only(), description="Ajusta créditos de uma carteira, com o motivo no extrato."
    )
    async def ajustar_creditos(
        self, info: Info, entrada: Annotated[Any, strawberry.argument(graphql_type=AjusteCreditosInput)]
    ) -> SaldoType:
        return SaldoType.from_model(await equipe.ajustar_creditos(info.context.principal, as_dados(entrada)))
