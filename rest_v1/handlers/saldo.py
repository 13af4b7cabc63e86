from aiohttp import web

from graphql_api.executor import Operation
from rest_v1 import fragments
from rest_v1.gql import execute
from rest_v1.responses import ok
from rest_v1.routing import Routes

routes = Routes("Créditos")

SALDO = Operation("query { saldo { ...SaldoFields } }" + fragments.SALDO)


@routes.get("/saldo", summary="Saldo da carteira do ambiente da chave", response="Saldo", errors=("FORBIDDEN",))
async def obter_saldo(request: web.Request) -> web.Response:
    return ok((await execute(request, SALDO))["saldo"])
