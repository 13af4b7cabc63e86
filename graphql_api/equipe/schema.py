"""Staff-only fields of the internal API, served at /graphql to staff tokens only."""

from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.permissions import staff_only
from graphql_api.core.validation import exigir_aceito
from graphql_api.creditos import planos
from graphql_api.creditos.schemas import AjusteCreditos, NovaVersaoPlano
from graphql_api.creditos.types import PlanoAtualType, PlanoType, SaldoType
from graphql_api.equipe import service
from graphql_api.equipe.types import AcaoType, IntegradorType
from graphql_api.integracao.types import ContratoType
from graphql_api.integrador import service as integradores
from graphql_api.integrador.models import Integrador

NovaVersaoPlanoInput = input_type(NovaVersaoPlano)
AjusteCreditosInput = input_type(AjusteCreditos)


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

    @strawberry.field(extensions=staff_only(), description="Equipe: o plano de um integrador num ambiente.")
    async def plano_integrador(self, info: Info, integrador_id: str, ambiente: str) -> PlanoAtualType:
        exigir_aceito("ambiente", ambiente, ("teste", "producao"))
        integrador = await integradores.obter(integrador_id)
        return PlanoAtualType.from_value(await planos.plano_atual(integrador.id, ambiente))


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

    @strawberry.mutation(extensions=staff_only())
    async def mudar_plano_integrador(
        self, info: Info, integrador_id: str, ambiente: str, plano: str, motivo: str | None = None
    ) -> PlanoAtualType:
        atual = await service.mudar_plano_integrador(
            info.context.principal, integrador_id, ambiente, plano, motivo, bus=info.context.runtime.bus
        )
        return PlanoAtualType.from_value(atual)

    @strawberry.mutation(extensions=staff_only())
    async def cancelar_mudanca_plano_integrador(self, info: Info, integrador_id: str, ambiente: str) -> PlanoAtualType:
        return PlanoAtualType.from_value(
            await service.cancelar_mudanca_plano(info.context.principal, integrador_id, ambiente)
        )

    @strawberry.mutation(
        extensions=staff_only(),
        description="Publica uma nova versão de um plano (ou um plano novo, com todos os campos); "
        "os assinantes passam para ela no próximo ciclo.",
    )
    async def publicar_versao_plano(
        self, info: Info, entrada: Annotated[Any, strawberry.argument(graphql_type=NovaVersaoPlanoInput)]
    ) -> PlanoType:
        return PlanoType.from_model(await service.publicar_versao_plano(info.context.principal, as_dados(entrada)))

    @strawberry.mutation(
        extensions=staff_only(), description="Ajusta créditos de uma carteira, com o motivo no extrato."
    )
    async def ajustar_creditos(
        self, info: Info, entrada: Annotated[Any, strawberry.argument(graphql_type=AjusteCreditosInput)]
    ) -> SaldoType:
        return SaldoType.from_model(await service.ajustar_creditos(info.context.principal, as_dados(entrada)))
