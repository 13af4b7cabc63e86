from aiohttp import web

from graphql_api.executor import Operation
from rest_v1 import fragments
from rest_v1.gql import PAGE_PARAMS, execute, page_variables, query_params
from rest_v1.responses import ok, page

FILTROS = {"de", "ate", "status", "metodo", "endpoint", "codigoErro", "contaId", "chave", "ambiente"}

LISTAR_CHAMADAS = Operation(
    """query($filtros: JSON, $limite: Int, $cursor: String) {
      chamadas(filtros: $filtros, limite: $limite, cursor: $cursor) {
        itens { ...ChamadaFields } """ + fragments.PAGINACAO + """
      }
    }"""
    + fragments.CHAMADA
)
OBTER_CHAMADA = Operation(
    "query($requestId: String!) { chamada(requestId: $requestId) { ...ChamadaDetalheFields } }"
    + fragments.CHAMADA_DETALHE
)
ERROS = Operation(
    """query { errosRecentes {
      tipo status total ultimaOcorrencia ultimoRequestId mensagem causa comoCorrigir documentacao
    } }"""
)


async def listar_chamadas(request: web.Request) -> web.Response:
    params = query_params(request, PAGE_PARAMS | FILTROS)
    paging = page_variables(params)
    result = await execute(request, LISTAR_CHAMADAS, filtros=params, **paging)
    return page(result["chamadas"])


async def obter_chamada(request: web.Request) -> web.Response:
    result = await execute(request, OBTER_CHAMADA, requestId=request.match_info["requestId"])
    return ok(result["chamada"])


async def erros_recentes(request: web.Request) -> web.Response:
    return ok((await execute(request, ERROS))["errosRecentes"])
