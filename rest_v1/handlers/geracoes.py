from aiohttp import web

from graphql_api.core.inputs import entrada
from graphql_api.geracao.schemas import EdicaoRequest, NovaGaleria, NovoVideo, parse_edicao
from graphql_api.operations import fragments
from graphql_api.operations import geracao as ops
from rest_v1.gql import body, execute
from rest_v1.keys import CONTA_ID
from rest_v1.responses import ok
from rest_v1.routing import Routes

routes = Routes("Gerações")

CREATE_ERRORS = (
    "NOT_FOUND",
    "VALIDATION_FAILED",
    "INSUFFICIENT_CREDITS",
)


def _created(request: web.Request, geracao: dict) -> web.Response:
    if geracao.get("contaId"):
        request[CONTA_ID] = geracao["contaId"]
    return ok(geracao, status=201, headers={"Location": f"/v1/geracoes/{geracao['id']}"})


@routes.get(
    "/geracoes/{geracaoId}",
    summary="Uma geração, com links assinados novos a cada leitura",
    response=fragments.GERACAO,
    errors=("NOT_FOUND",),
    scope="geracoes:ler",
    description="Consulte a cada 5 a 10 segundos, ou receba o aviso geracao.concluida.",
)
async def obter_geracao(request: web.Request) -> web.Response:
    return ok((await execute(request, ops.OBTER_GERACAO, id=request.match_info["geracaoId"]))["geracao"])


@routes.post(
    "/galerias",
    summary="Pede uma galeria de imagens (gasta créditos; Idempotency-Key obrigatória)",
    status=201,
    spends_credits=True,
    scope="geracoes:criar",
    body=NovaGaleria,
    response=fragments.GERACAO,
    errors=CREATE_ERRORS + ("CHECK_NOT_READY", "MEDIA_TYPE_NOT_APPROVED"),
)
async def criar_galeria(request: web.Request) -> web.Response:
    return _created(
        request, (await execute(request, ops.CRIAR_GALERIA, dados=entrada(NovaGaleria, body(request))))["criarGaleria"]
    )


@routes.post(
    "/videos",
    summary="Pede um vídeo com fala (gasta créditos; Idempotency-Key obrigatória)",
    status=201,
    spends_credits=True,
    scope="geracoes:criar",
    body=NovoVideo,
    response=fragments.GERACAO,
    errors=CREATE_ERRORS + ("CHECK_NOT_READY", "MEDIA_TYPE_NOT_APPROVED"),
)
async def criar_video(request: web.Request) -> web.Response:
    return _created(
        request, (await execute(request, ops.CRIAR_VIDEO, dados=entrada(NovoVideo, body(request))))["criarVideo"]
    )


@routes.post(
    "/imagens/{imagemId}/edicoes",
    summary="Edita uma imagem gerada ou uma foto aprovada (gasta créditos; Idempotency-Key obrigatória)",
    status=201,
    spends_credits=True,
    scope="geracoes:criar",
    body=EdicaoRequest,
    response=fragments.GERACAO,
    errors=CREATE_ERRORS,
)
async def criar_edicao(request: web.Request) -> web.Response:
    result = await execute(
        request, ops.CRIAR_EDICAO, imagemId=request.match_info["imagemId"], dados=entrada(parse_edicao, body(request))
    )
    return _created(request, result["criarEdicao"])
