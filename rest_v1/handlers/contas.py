from typing import get_args

from aiohttp import web

from graphql_api.chamada.writer import TipoChamada
from graphql_api.conta.schemas import NovaConta, Origem, SituacaoConta
from graphql_api.core.inputs import entrada
from graphql_api.operations import conta as ops
from graphql_api.operations import fragments
from rest_v1.gql import body, execute, page_variables, query_params
from rest_v1.responses import ok, page
from rest_v1.routing import Routes, enum_schema, page_parameters, text_schema

routes = Routes("Contas")

LISTAR_QUERY = page_parameters("cta_") | {
    "codigoExterno": text_schema(100),
    "origem": enum_schema(*get_args(Origem)),
    "situacao": enum_schema(*get_args(SituacaoConta)),
}


@routes.post(
    "/contas",
    summary="Cria uma subconta (Idempotency-Key opcional)",
    status=201,
    kind=TipoChamada.CRIA_SUBCONTA,
    body=NovaConta,
    response=fragments.CONTA,
    errors=("ACCOUNT_ALREADY_EXISTS", "VALIDATION_FAILED", "FORBIDDEN"),
    scope="contas:escrever",
    integrator_only=True,
)
async def criar_conta(request: web.Request) -> web.Response:
    conta = (await execute(request, ops.CRIAR_CONTA, dados=entrada(NovaConta, body(request))))["criarConta"]
    return ok(conta, status=201)


@routes.get(
    "/contas/{contaId}", summary="Uma conta", response=fragments.CONTA, errors=("NOT_FOUND",), scope="contas:ler"
)
async def obter_conta(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.OBTER_CONTA, id=request.match_info["contaId"]))["conta"])


@routes.get(
    "/contas",
    summary="Lista as contas (um token OAuth vê só a conta vinculada)",
    response=fragments.CONTA,
    list_response=True,
    query=LISTAR_QUERY,
    errors=("VALIDATION_FAILED",),
    scope="contas:ler",
)
async def listar_contas(request: web.Request) -> web.Response:
    params = query_params(request, LISTAR_QUERY)
    result = await execute(request, ops.LISTAR_CONTAS, **page_variables(params), **params)
    return page(result["contas"])
