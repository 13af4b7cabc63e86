from aiohttp import web

from graphql_api.executor import Operation
from graphql_api.produto.ficha import Ficha
from rest_v1 import fragments
from rest_v1.gql import body, execute
from rest_v1.responses import ok
from rest_v1.routing import Routes

routes = Routes("Produtos")

SALVAR = Operation(
    """mutation($contaId: String!, $codigo: String!, $ficha: JSON!) {
      salvarFicha(contaId: $contaId, codigo: $codigo, ficha: $ficha) { ...ProdutoFields }
    }"""
    + fragments.PRODUTO
)


@routes.put(
    "/contas/{contaId}/produtos/{codigo}",
    summary="Envia a ficha do produto (nova versão só se o conteúdo mudou)",
    body=Ficha, response="Produto", errors=("NOT_FOUND", "VALIDATION_FAILED"),
)
async def salvar_ficha(request: web.Request) -> web.Response:
    result = await execute(
        request,
        SALVAR,
        contaId=request.match_info["contaId"],
        codigo=request.match_info["codigo"],
        ficha=body(request),
    )
    return ok(result["salvarFicha"])
