import math
import time

from aiohttp import web

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.scalars import parse_timestamp
from graphql_api.operations import fragments
from graphql_api.operations import produto as ops
from rest_v1.gql import execute, query_params
from rest_v1.keys import CONTA_ID
from rest_v1.responses import ok
from rest_v1.routing import Routes, enum_schema

routes = Routes("Conferência")

CONFERIR_QUERY = {"refazer": enum_schema("true", "false")}


@routes.post(
    "/produtos/{produtoId}/conferencia",
    summary="A conferência da versão atual do produto",
    response=fragments.CONFERENCIA,
    errors=("NOT_FOUND", "CHECK_LIMIT_EXCEEDED", "VALIDATION_FAILED", "FORBIDDEN"),
    query=CONFERIR_QUERY,
    scope="produtos:ler",
    also=(
        (
            202,
            "Conferência em andamento ou agendada: pergunte de novo em consultarNovamenteEm "
            "(também em Retry-After, em segundos).",
        ),
    ),
    description="200 com o resultado quando concluída. Uma conferência nova começa quando não há "
    "nenhuma para a versão atual, quando a última falhou, ou com ?refazer=true (por exemplo depois de "
    "corrigir o servidor das fotos); até 10 por produto em 24 horas, contando as automáticas. "
    "Com um token OAuth, ler a conferência pede produtos:ler e ?refazer=true pede também "
    "produtos:escrever (gasta uma das 10 conferências do dia, de que as versões novas da ficha precisam).",
)
async def conferir(request: web.Request) -> web.Response:
    refazer = query_params(request, CONFERIR_QUERY).get("refazer", "false")
    if refazer not in ("true", "false"):
        raise ApiError("VALIDATION_FAILED", fields=[FieldError("refazer", "valor_invalido", "Use true ou false.")])
    result = await execute(
        request, ops.CONFERIR_PRODUTO, produtoId=request.match_info["produtoId"], refazer=refazer == "true"
    )
    conferencia = result["conferirProduto"]
    request[CONTA_ID] = conferencia.pop("contaId")
    if conferencia["situacao"] == "concluida":
        return ok(conferencia)
    wait = parse_timestamp(conferencia["consultarNovamenteEm"]).timestamp() - time.time()
    return ok(conferencia, status=202, headers={"Retry-After": str(max(1, math.ceil(wait)))})
