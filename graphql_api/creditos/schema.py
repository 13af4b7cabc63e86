"""Credits and plans: the balance, the statement and prices, the catalogue of plans, the
environment's plan and quota (the integrator's, API key or portal), plan changes (the portal's
people with creditos:comprar); the staff's tools are in graphql_api/equipe/schema.py."""

from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.core.pagination import PageRequest, Pagina, pagina
from graphql_api.core.permissions import requires, staff_only
from graphql_api.core.validation import validate
from graphql_api.creditos import planos, service
from graphql_api.creditos.models import Plano
from graphql_api.creditos.precos import PRECOS
from graphql_api.creditos.schemas import FiltroExtrato, MudancaPlano
from graphql_api.creditos.types import CotaType, LancamentoType, PlanoAtualType, PlanoType, PrecoType, SaldoType

FiltroExtratoInput = input_type(FiltroExtrato)
MudancaPlanoInput = input_type(MudancaPlano)


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

    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def planos(self, info: Info) -> list[PlanoType]:
        return [PlanoType.from_model(p) for p in await planos.listar_planos()]

    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def plano(self, info: Info) -> PlanoAtualType:
        principal = info.context.principal
        return PlanoAtualType.from_value(
            await planos.plano_atual(principal.integrador_exigido, principal.ambiente.value)
        )

    @strawberry.field(extensions=requires("creditos:ler", integrator_only=True))
    async def cota_do_mes(self, info: Info) -> CotaType:
        principal = info.context.principal
        return CotaType.from_value(await planos.cota_do_mes(principal.integrador_exigido, principal.ambiente.value))

    @strawberry.field(extensions=staff_only(), description="Equipe: o catálogo, com as versões antigas se pedido.")
    async def catalogo_planos(self, info: Info, todas_versoes: bool = False) -> list[PlanoType]:
        rows = await (Plano.all().order_by("ordem", "codigo", "versao") if todas_versoes else planos.listar_planos())
        return [PlanoType.from_model(p) for p in rows]


@strawberry.type
class Mutation:
    @strawberry.mutation(extensions=requires("creditos:comprar", integrator_only=True))
    async def recarregar_teste(self, info: Info) -> SaldoType:
        return SaldoType.from_model(await service.recarregar_teste(info.context.principal))

    @strawberry.mutation(
        extensions=requires("creditos:comprar", portal_only=True),
        description="Muda o plano do ambiente: um plano maior vale na hora, um menor no próximo ciclo.",
    )
    async def mudar_plano(
        self, info: Info, entrada: Annotated[Any, strawberry.argument(graphql_type=MudancaPlanoInput)]
    ) -> PlanoAtualType:
        atual = await planos.mudar_meu_plano(info.context.principal, as_dados(entrada), bus=info.context.runtime.bus)
        return PlanoAtualType.from_value(atual)

    @strawberry.mutation(
        extensions=requires("creditos:comprar", portal_only=True),
        description="Cancela a mudança para um plano menor agendada para o próximo ciclo.",
    )
    async def cancelar_mudanca_plano(self, info: Info) -> PlanoAtualType:
        principal = info.context.principal
        atual = await planos.cancelar_mudanca(principal.integrador_exigido, principal.ambiente.value)
        return PlanoAtualType.from_value(atual)
