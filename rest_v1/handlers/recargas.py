"""Single packages and their purchases: GET /pacotes, POST/GET /recargas, GET /recargas/{id}."""

from typing import get_args

from aiohttp import web

from graphql_api.core.inputs import entrada
from graphql_api.operations import fragments
from graphql_api.operations import recarga as ops
from graphql_api.recarga.schemas import NovaRecarga, SituacaoRecarga
from rest_v1.gql import body, execute, page_variables, query_params
from rest_v1.responses import ok, page
from rest_v1.routing import Routes, enum_schema, page_parameters

# The integrator's own routes (OAuth rule 5): a token gets 403 FORBIDDEN before the body.
routes = Routes("Créditos", integrator_only=True)


@routes.get(
    "/pacotes",
    summary="Pacotes avulsos de créditos à venda",
    response=fragments.PACOTE,
    list_response=True,
    paginated=False,
    errors=("FORBIDDEN",),
    scope="creditos:ler",
)
async def listar_pacotes(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.PACOTES))["pacotes"])


@routes.post(
    "/recargas",
    summary="Compra um pacote: cria a recarga pendente com o link de pagamento (Idempotency-Key obrigatória)",
    status=201,
    body=NovaRecarga,
    response=fragments.RECARGA,
    errors=("VALIDATION_FAILED", "FORBIDDEN"),
    idempotency_required=True,
    scope="creditos:comprar",
)
async def criar_recarga(request: web.Request) -> web.Response:
    dados = entrada(NovaRecarga, body(request))
    return ok((await execute(request, ops.CRIAR_RECARGA, dados=dados))["criarRecarga"], status=201)


LISTAR_QUERY = page_parameters("rec_") | {"situacao": enum_schema(*get_args(SituacaoRecarga))}


@routes.get(
    "/recargas",
    summary="Lista as recargas (compras de pacotes), as mais novas primeiro",
    response=fragments.RECARGA,
    list_response=True,
    query=LISTAR_QUERY,
    errors=("VALIDATION_FAILED", "FORBIDDEN"),
    scope="creditos:ler",
)
async def listar_recargas(request: web.Request) -> web.Response:
    params = query_params(request, LISTAR_QUERY)
    return page((await execute(request, ops.LISTAR_RECARGAS, **page_variables(params), **params))["recargas"])


@routes.get(
    "/recargas/{recargaId}",
    summary="Uma recarga: pendente até ser paga, recusada ou expirar",
    response=fragments.RECARGA,
    errors=("NOT_FOUND", "FORBIDDEN"),
    scope="creditos:ler",
)
async def obter_recarga(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.OBTER_RECARGA, id=request.match_info["recargaId"]))["recarga"])
