from aiohttp import web

from graphql_api.executor import Operation
from rest_v1 import fragments
from rest_v1.gql import execute
from rest_v1.responses import ok

OBTER = Operation("query($id: ID!) { geracao(id: $id) { ...GeracaoFields } }" + fragments.GERACAO)


async def obter_geracao(request: web.Request) -> web.Response:
    return ok((await execute(request, OBTER, id=request.match_info["geracaoId"]))["geracao"])
