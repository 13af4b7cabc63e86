from aiohttp import web

from graphql_api.core.inputs import entrada
from graphql_api.operations import fragments
from graphql_api.operations import produto as ops
from graphql_api.produto.schemas import Ficha, parse_ficha
from graphql_api.produto.service import SITUACOES
from rest_v1.gql import body, execute, page_variables, query_params
from rest_v1.responses import ok, page
from rest_v1.routing import Routes, enum_schema, page_parameters

routes = Routes("Produtos")

LISTAR_QUERY = page_parameters("prd_") | {"situacao": enum_schema(*SITUACOES)}


def _path(request: web.Request) -> dict[str, str]:
    return {"contaId": request.match_info["contaId"], "codigo": request.match_info["codigo"]}


@routes.put(
    "/contas/{contaId}/produtos/{codigo}",
    summary="Envia a ficha do produto (nova versão só se o conteúdo mudou)",
    body=Ficha,
    response=fragments.PRODUTO,
    errors=("NOT_FOUND", "VALIDATION_FAILED"),
    scope="produtos:escrever",
    description="Cada versão nova começa uma conferência sozinha (situacao conferindo).",
)
async def salvar_ficha(request: web.Request) -> web.Response:
    result = await execute(request, ops.SALVAR_FICHA, **_path(request), ficha=entrada(parse_ficha, body(request)))
    return ok(result["salvarFicha"])


@routes.get(
    "/contas/{contaId}/produtos/{codigo}",
    summary="Um produto, com a triagem das fotos da versão atual",
    response=fragments.PRODUTO,
    errors=("NOT_FOUND",),
    scope="produtos:ler",
)
async def obter_produto(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.OBTER_PRODUTO, **_path(request)))["produto"])


@routes.get(
    "/contas/{contaId}/produtos",
    summary="Lista os produtos da conta, mais novos primeiro",
    response=fragments.PRODUTO,
    list_response=True,
    query=LISTAR_QUERY,
    errors=("NOT_FOUND", "VALIDATION_FAILED"),
    scope="produtos:ler",
)
async def listar_produtos(request: web.Request) -> web.Response:
    params = query_params(request, LISTAR_QUERY)
    result = await execute(
        request, ops.LISTAR_PRODUTOS, contaId=request.match_info["contaId"], **page_variables(params), **params
    )
    return page(result["produtos"])


@routes.delete(
    "/contas/{contaId}/produtos/{codigo}",
    summary="Exclui a ficha do produto",
    status=204,
    errors=("NOT_FOUND", "FORBIDDEN"),
    scope="produtos:escrever",
    description="Gerações já pedidas terminam e continuam em GET /geracoes/{geracaoId}; o produto some "
    "da API e conferências pendentes são canceladas. O mesmo código pode ser enviado de novo: vira um "
    "produto novo.",
)
async def excluir_ficha(request: web.Request) -> web.Response:
    await execute(request, ops.EXCLUIR_FICHA, **_path(request))
    return web.Response(status=204)
