"""Notice addresses (/avisos), their deliveries and test runs. Integrator-only: the schema
answers 403 FORBIDDEN to OAuth tokens."""

from aiohttp import web

from graphql_api.aviso.entregas import SITUACOES_ENTREGA
from graphql_api.aviso.schemas import NovoAviso, PedidoTeste, Rotacao
from graphql_api.core.inputs import entrada
from graphql_api.evento.catalog import EVENT_TYPES
from graphql_api.operations import aviso as ops
from graphql_api.operations import fragments
from rest_v1.gql import body, execute, page_variables, query_params
from rest_v1.keys import JSON_BODY
from rest_v1.responses import ok, page
from rest_v1.routing import Routes, enum_schema, page_parameters

# OAuth rule 5: /avisos and its sub-paths (test runs included) are the integrator's own.
routes = Routes("Avisos", scope="avisos:gerenciar", integrator_only=True)

_ERRORS = ("FORBIDDEN",)
LISTAR_QUERY = page_parameters("avs_")
ENTREGAS_QUERY = page_parameters("ent_") | {
    "situacao": enum_schema(*SITUACOES_ENTREGA),
    "tipo": enum_schema(*EVENT_TYPES),
}
_REGISTRAR_DOC = dict(
    status=201,
    body=NovoAviso,
    response=fragments.AVISO,
    response_extra=(("RegistroAviso", "segredo"),),
    errors=_ERRORS + ("VALIDATION_FAILED", "NOTICE_ADDRESS_LIMIT_REACHED"),
    also=((200, "A url já existia: eventos atualizados, endereço reativado, sem novo segredo."),),
    description="201 na criação, com o segredo whsec_ (mostrado uma única vez); 200 quando a url já existia "
    "(atualiza os eventos e reativa um endereço desativado, sem novo segredo).",
)


def _registro(result: dict) -> web.Response:
    data = dict(result["aviso"])
    if result["segredo"] is not None:
        data["segredo"] = result["segredo"]
    return ok(data, status=201 if result["criado"] else 200)


@routes.put("/avisos", summary="Registra ou atualiza (pela url) um endereço de avisos", **_REGISTRAR_DOC)
async def registrar_aviso(request: web.Request) -> web.Response:
    return _registro(
        (await execute(request, ops.REGISTRAR_AVISO, dados=entrada(NovoAviso, body(request))))["registrarAviso"]
    )


@routes.post("/avisos", summary="Registra ou atualiza (pela url) um endereço de avisos", **_REGISTRAR_DOC)
async def registrar_aviso_post(request: web.Request) -> web.Response:
    return await registrar_aviso(request)


@routes.get(
    "/avisos",
    summary="Lista os endereços de avisos do ambiente",
    response=fragments.AVISO,
    list_response=True,
    query=LISTAR_QUERY,
    errors=_ERRORS + ("VALIDATION_FAILED",),
)
async def listar_avisos(request: web.Request) -> web.Response:
    params = query_params(request, LISTAR_QUERY)
    return page((await execute(request, ops.LISTAR_AVISOS, **page_variables(params)))["avisos"])


@routes.get(
    "/avisos/{avisoId}", summary="Um endereço de avisos", response=fragments.AVISO, errors=_ERRORS + ("NOT_FOUND",)
)
async def obter_aviso(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.OBTER_AVISO, id=request.match_info["avisoId"]))["aviso"])


@routes.delete(
    "/avisos/{avisoId}",
    summary="Remove um endereço de avisos e suas entregas",
    status=204,
    errors=_ERRORS + ("NOT_FOUND",),
)
async def remover_aviso(request: web.Request) -> web.Response:
    await execute(request, ops.REMOVER_AVISO, id=request.match_info["avisoId"])
    return web.Response(status=204)


@routes.post(
    "/avisos/{avisoId}/segredo/rotacao",
    summary="Gera um novo segredo; o anterior ainda assina durante a carência",
    body=Rotacao,
    body_required=False,
    response=fragments.AVISO,
    response_extra=(("RegistroAviso", "segredo"),),
    errors=_ERRORS + ("NOT_FOUND", "VALIDATION_FAILED"),
    description="O novo segredo vem uma única vez em `segredo`. Durante `carenciaHoras` (padrão 24, 0 a 168) cada "
    "entrega leva as duas assinaturas em webhook-signature, separadas por espaço.",
)
async def rotacionar_segredo(request: web.Request) -> web.Response:
    result = await execute(
        request,
        ops.ROTACIONAR_SEGREDO,
        id=request.match_info["avisoId"],
        dados=entrada(Rotacao, request.get(JSON_BODY)),
    )
    return _registro(result["rotacionarSegredoAviso"])


@routes.get(
    "/avisos/{avisoId}/entregas",
    summary="Entregas de um endereço, com tentativas, status e trechos das respostas",
    response=fragments.ENTREGA,
    list_response=True,
    query=ENTREGAS_QUERY,
    errors=_ERRORS + ("NOT_FOUND", "VALIDATION_FAILED"),
)
async def listar_entregas(request: web.Request) -> web.Response:
    params = query_params(request, ENTREGAS_QUERY)
    result = await execute(
        request, ops.LISTAR_ENTREGAS, avisoId=request.match_info["avisoId"], **page_variables(params), **params
    )
    return page(result["entregasAviso"])


@routes.post(
    "/avisos/{avisoId}/entregas/{entregaId}/reenvio",
    summary="Reenvia uma entrega agora (mesmo webhook-id e corpo)",
    status=202,
    response=fragments.ENTREGA,
    errors=_ERRORS + ("NOT_FOUND", "NOTICE_ADDRESS_DISABLED"),
)
async def reenviar_entrega(request: web.Request) -> web.Response:
    result = await execute(
        request, ops.REENVIAR_ENTREGA, avisoId=request.match_info["avisoId"], entregaId=request.match_info["entregaId"]
    )
    return ok(result["reenviarEntregaAviso"], status=202)


@routes.post(
    "/avisos/teste",
    summary="Envia três entregas de teste: válida, assinatura errada, timestamp de 10 minutos atrás",
    status=202,
    body=PedidoTeste,
    body_required=False,
    response=fragments.TESTE_AVISO,
    list_response=True,
    paginated=False,
    errors=_ERRORS + ("NOTICE_ADDRESS_REQUIRED", "NOTICE_ADDRESS_DISABLED", "NOT_FOUND", "VALIDATION_FAILED"),
    description='Sem corpo, testa o endereço ativo registrado ou atualizado por último; {"avisoId": …} escolhe outro. '
    "Acompanhe cada teste em GET /testes-de-avisos/{testeId}.",
)
async def testar_aviso(request: web.Request) -> web.Response:
    return ok(
        (await execute(request, ops.TESTAR_AVISO, dados=entrada(PedidoTeste, request.get(JSON_BODY))))["testarAviso"],
        status=202,
    )


@routes.get(
    "/testes-de-avisos/{testeId}",
    summary="O que foi enviado num teste, o que o endereço respondeu e se era o esperado",
    response=fragments.TESTE_AVISO,
    errors=_ERRORS + ("NOT_FOUND",),
)
async def obter_teste(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.OBTER_TESTE, id=request.match_info["testeId"]))["testeAviso"])
