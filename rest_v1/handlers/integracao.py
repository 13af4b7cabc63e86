from aiohttp import web

from graphql_api.chamada.schemas import CHAVE_PATTERN, METODOS, STATUS_PATTERN, FiltroChamadas
from graphql_api.core.errors import CATALOG
from graphql_api.core.inputs import entrada
from graphql_api.core.validation import SEM_CONTROLE_PATTERN
from graphql_api.operations import fragments
from graphql_api.operations import integracao as ops
from rest_v1.gql import execute, page_variables, query_params
from rest_v1.responses import ok, page
from rest_v1.routing import MOMENT_SCHEMA, Routes, enum_schema, id_schema, page_parameters, text_schema

routes = Routes("Integração")

# The filters' own rules are FiltroChamadas' (graphql_api/chamada/schemas.py); these are their shapes.
CHAMADAS_QUERY = page_parameters("req_") | {
    "de": MOMENT_SCHEMA,
    "ate": MOMENT_SCHEMA,
    "status": {"type": "string", "pattern": STATUS_PATTERN.pattern},
    "metodo": enum_schema(*METODOS, *(m.lower() for m in METODOS)),  # either case
    "endpoint": text_schema(200) | {"pattern": "^/" + SEM_CONTROLE_PATTERN.removeprefix("^")},
    "codigoErro": enum_schema(*sorted(CATALOG)),
    "contaId": id_schema("cta_"),
    "chave": {"type": "string", "pattern": CHAVE_PATTERN.pattern},
    "ambiente": enum_schema("teste", "producao"),
    "clientId": id_schema("app_"),
}


@routes.get(
    "/integracao/chamadas",
    summary="Registro de chamadas, sem corpos, com filtros",
    response=fragments.CHAMADA,
    list_response=True,
    query=CHAMADAS_QUERY,
    errors=("VALIDATION_FAILED", "FORBIDDEN"),
    integrator_only=True,
)
async def listar_chamadas(request: web.Request) -> web.Response:
    params = query_params(request, CHAMADAS_QUERY)
    paging = page_variables(params)
    result = await execute(request, ops.LISTAR_CHAMADAS, filtros=entrada(FiltroChamadas, params), **paging)
    return page(result["chamadas"])


@routes.get(
    "/integracao/chamadas/{requestId}",
    summary="Detalhe de uma chamada: corpos mascarados, causa e correção",
    response=fragments.CHAMADA_DETALHE,
    errors=("NOT_FOUND", "FORBIDDEN"),
    integrator_only=True,
)
async def obter_chamada(request: web.Request) -> web.Response:
    result = await execute(request, ops.OBTER_CHAMADA, requestId=request.match_info["requestId"])
    return ok(result["chamada"])


@routes.get(
    "/integracao/erros",
    summary="Seus erros dos últimos 7 dias, agrupados por tipo (chave de API ou token OAuth)",
    response=fragments.ERRO_RECENTE,
    list_response=True,
    paginated=False,
    errors=(),
)
async def erros_recentes(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.ERROS_RECENTES))["errosRecentes"])


@routes.get(
    "/integracao/status",
    summary="As 8 etapas de integração, o acesso de produção e os alertas abertos",
    response=fragments.INTEGRACAO_STATUS,
    errors=("FORBIDDEN",),
    integrator_only=True,
)
async def obter_status(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.INTEGRACAO_STATUS))["integracaoStatus"])


@routes.post(
    "/integracao/pedido-producao",
    summary="Pede a liberação de produção (automática com as 8 etapas ok)",
    response=fragments.INTEGRACAO_STATUS,
    errors=("INTEGRATION_STEPS_PENDING", "FORBIDDEN"),
    integrator_only=True,
)
async def pedir_producao(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.PEDIR_PRODUCAO))["pedirProducao"])
