from aiohttp import web

from graphql_api.executor import Operation
from rest_v1 import fragments
from rest_v1.gql import PAGE_PARAMS, execute, page_variables, query_params
from rest_v1.responses import ok, page
from rest_v1.routing import Routes

routes = Routes("Créditos")

SALDO = Operation("query { saldo { ...SaldoFields } }" + fragments.SALDO)


@routes.get("/saldo", summary="Saldo da carteira do ambiente da chave", response="Saldo", errors=("FORBIDDEN",))
async def obter_saldo(request: web.Request) -> web.Response:
    return ok((await execute(request, SALDO))["saldo"])


EXTRATO = Operation(
    """query($limite: Int, $cursor: String) { extrato(limite: $limite, cursor: $cursor) {
      itens { id tipo creditosDisponiveis creditosReservados geracaoId descricao criadoEm } """
    + fragments.PAGINACAO + " } }"
)
PRECOS = Operation("query { precos { tipo creditos unidade descricao } }")


@routes.get(
    "/extrato", summary="Movimentos da carteira (reservas, cobranças, devoluções, recargas)",
    response="Lancamento", list_response=True, query=tuple(sorted(PAGE_PARAMS)), errors=("FORBIDDEN", "VALIDATION_FAILED"),
)
async def obter_extrato(request: web.Request) -> web.Response:
    params = query_params(request, PAGE_PARAMS)
    return page((await execute(request, EXTRATO, **page_variables(params)))["extrato"])


@routes.get("/precos", summary="Tabela de preços em créditos por tipo de mídia", response="Preco", list_response=True, paginated=False)
async def obter_precos(request: web.Request) -> web.Response:
    return ok((await execute(request, PRECOS))["precos"])
