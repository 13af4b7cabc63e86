import math
import time

from aiohttp import web

from graphql_api.core.scalars import parse_timestamp
from graphql_api.executor import Operation
from rest_v1 import fragments
from rest_v1.gql import execute
from rest_v1.keys import CONTA_ID
from rest_v1.responses import ok
from rest_v1.routing import Routes

routes = Routes("Conferência")

CONFERIR = Operation(
    "mutation($produtoId: String!) { conferirProduto(produtoId: $produtoId) { contaId ...ConferenciaFields } }"
    + fragments.CONFERENCIA
)


@routes.post(
    "/produtos/{produtoId}/conferencia", summary="A conferência da versão atual do produto",
    response="Conferencia", errors=("NOT_FOUND", "CHECK_LIMIT_EXCEEDED", "FORBIDDEN"),
    also=((202, "Conferência em andamento ou agendada: pergunte de novo em consultarNovamenteEm "
                "(também em Retry-After, em segundos)."),),
    description="200 com o resultado quando concluída. Uma conferência nova começa quando não há "
    "nenhuma para a versão atual, quando a última falhou ou quando uma foto falhou por um motivo "
    "passageiro (5xx, tempo esgotado, conexão); até 10 por produto em 24 horas.",
)
async def conferir(request: web.Request) -> web.Response:
    conferencia = (await execute(request, CONFERIR, produtoId=request.match_info["produtoId"]))["conferirProduto"]
    request[CONTA_ID] = conferencia.pop("contaId")
    if conferencia["situacao"] == "concluida":
        return ok(conferencia)
    wait = parse_timestamp(conferencia["consultarNovamenteEm"]).timestamp() - time.time()
    return ok(conferencia, status=202, headers={"Retry-After": str(max(1, math.ceil(wait)))})
