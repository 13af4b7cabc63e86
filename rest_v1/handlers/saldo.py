from aiohttp import web

from graphql_api.core.inputs import entrada
from graphql_api.creditos.schemas import TIPOS_LANCAMENTO, FiltroExtrato
from graphql_api.operations import creditos as ops
from graphql_api.operations import fragments
from graphql_api.operations import plano as planos
from rest_v1.gql import execute, page_variables, query_params
from rest_v1.responses import ok, page
from rest_v1.routing import MOMENT_SCHEMA, Routes, enum_schema, id_schema, page_parameters

routes = Routes("Créditos")


@routes.get(
    "/saldo",
    summary="Saldo da carteira do ambiente da chave",
    response=fragments.SALDO,
    errors=("FORBIDDEN",),
    scope="creditos:ler",
    integrator_only=True,
)
async def obter_saldo(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.SALDO))["saldo"])


# The filters' own rules are FiltroExtrato's (graphql_api/creditos/schemas.py); these are their shapes.
EXTRATO_QUERY = page_parameters("lan_") | {
    "de": MOMENT_SCHEMA,
    "ate": MOMENT_SCHEMA,
    "tipo": enum_schema(*TIPOS_LANCAMENTO),
    "geracaoId": id_schema("ger_"),
}


@routes.get(
    "/extrato",
    summary="Movimentos da carteira (créditos do plano, pacotes, reservas, cobranças, devoluções, ajustes)",
    response=fragments.LANCAMENTO,
    list_response=True,
    query=EXTRATO_QUERY,
    errors=("FORBIDDEN", "VALIDATION_FAILED"),
    scope="creditos:ler",
    integrator_only=True,
)
async def obter_extrato(request: web.Request) -> web.Response:
    params = query_params(request, EXTRATO_QUERY)
    paging = page_variables(params)
    result = await execute(request, ops.EXTRATO, filtros=entrada(FiltroExtrato, params), **paging)
    return page(result["extrato"])


@routes.get(
    "/precos",
    summary="Tabela de preços em créditos por tipo de mídia",
    response=fragments.PRECO,
    list_response=True,
    paginated=False,
)
async def obter_precos(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.PRECOS))["precos"])


@routes.get(
    "/planos",
    summary="Catálogo de planos: mensalidade, créditos mensais e limites por minuto",
    response=fragments.PLANO,
    list_response=True,
    paginated=False,
    errors=("FORBIDDEN",),
    scope="creditos:ler",
    integrator_only=True,
)
async def listar_planos(request: web.Request) -> web.Response:
    return ok((await execute(request, planos.PLANOS))["planos"])


@routes.get(
    "/plano",
    summary="O plano do ambiente, o ciclo atual e a mudança agendada",
    response=fragments.PLANO_ATUAL,
    errors=("FORBIDDEN",),
    scope="creditos:ler",
    integrator_only=True,
)
async def obter_plano(request: web.Request) -> web.Response:
    return ok((await execute(request, planos.PLANO))["plano"])


@routes.get(
    "/cota-do-mes",
    summary="A cota mensal do plano: usados, restantes, percentual e alertas do ciclo",
    response=fragments.COTA_DO_MES,
    errors=("FORBIDDEN",),
    scope="creditos:ler",
    integrator_only=True,
)
async def obter_cota(request: web.Request) -> web.Response:
    return ok((await execute(request, planos.COTA_DO_MES))["cotaDoMes"])
