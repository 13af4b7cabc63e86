from aiohttp import web

from graphql_api.operations import creditos as ops
from graphql_api.operations import fragments
from rest_v1.gql import execute, page_variables, query_params
from rest_v1.responses import ok, page
from rest_v1.routing import Routes, page_parameters

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


EXTRATO_QUERY = page_parameters("lan_")


@routes.get(
    "/extrato",
    summary="Movimentos da carteira (reservas, cobranças, devoluções, recargas)",
    response=fragments.LANCAMENTO,
    list_response=True,
    query=EXTRATO_QUERY,
    errors=("FORBIDDEN", "VALIDATION_FAILED"),
    scope="creditos:ler",
    integrator_only=True,
)
async def obter_extrato(request: web.Request) -> web.Response:
    params = query_params(request, EXTRATO_QUERY)
    return page((await execute(request, ops.EXTRATO, **page_variables(params)))["extrato"])


@routes.get(
    "/precos",
    summary="Tabela de preços em créditos por tipo de mídia",
    response=fragments.PRECO,
    list_response=True,
    paginated=False,
)
async def obter_precos(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.PRECOS))["precos"])
