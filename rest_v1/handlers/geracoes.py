from aiohttp import web

from graphql_api.executor import Operation
from rest_v1 import fragments
from rest_v1.gql import execute
from rest_v1.responses import ok
from rest_v1.routing import Routes

routes = Routes("Gerações")

OBTER = Operation("query($id: ID!) { geracao(id: $id) { ...GeracaoFields } }" + fragments.GERACAO)


@routes.get(
    "/geracoes/{geracaoId}", summary="Uma geração, com links assinados novos a cada leitura",
    response="Geracao", errors=("NOT_FOUND",),
    description="Consulte a cada 5 a 10 segundos, ou receba o aviso geracao.concluida.",
)
async def obter_geracao(request: web.Request) -> web.Response:
    return ok((await execute(request, OBTER, id=request.match_info["geracaoId"]))["geracao"])
