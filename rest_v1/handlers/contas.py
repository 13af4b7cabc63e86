from aiohttp import web

from graphql_api.executor import Operation
from rest_v1 import fragments
from rest_v1.gql import PAGE_PARAMS, body, execute, page_variables, query_params
from rest_v1.responses import ok, page

CRIAR = Operation(
    "mutation($dados: JSON!) { criarConta(dados: $dados) { ...ContaFields } }" + fragments.CONTA
)
OBTER = Operation("query($id: ID!) { conta(id: $id) { ...ContaFields } }" + fragments.CONTA)
LISTAR = Operation(
    """query($limite: Int, $cursor: String, $codigoExterno: String, $origem: String, $situacao: String) {
      contas(limite: $limite, cursor: $cursor, codigoExterno: $codigoExterno, origem: $origem, situacao: $situacao) {
        itens { ...ContaFields } """ + fragments.PAGINACAO + """
      }
    }"""
    + fragments.CONTA
)


async def criar_conta(request: web.Request) -> web.Response:
    conta = (await execute(request, CRIAR, dados=body(request)))["criarConta"]
    return ok(conta, status=201)


async def obter_conta(request: web.Request) -> web.Response:
    return ok((await execute(request, OBTER, id=request.match_info["contaId"]))["conta"])


async def listar_contas(request: web.Request) -> web.Response:
    params = query_params(request, PAGE_PARAMS | {"codigoExterno", "origem", "situacao"})
    result = await execute(request, LISTAR, **page_variables(params), **params)
    return page(result["contas"])
