"""One product: its ficha, the screening of its photos (thumbnails), the check's verdict per media
type with each pendencia explained, and media orders (gallery, video) placed from the page."""

from __future__ import annotations

import re
import secrets
from urllib.parse import quote

from aiohttp import web

from graphql_api.conferencia.catalog import CATALOG
from graphql_api.core.errors import ApiError
from graphql_api.core.inputs import entrada
from graphql_api.executor import Operation
from graphql_api.geracao.render import AVATARES, ROTULOS_AVATAR
from graphql_api.geracao.schemas import NovaGaleria, NovoVideo
from graphql_api.operations import fragments
from portal.geracoes import vocabulario
from portal.web import Page, PortalRoutes

routes = PortalRoutes()

PRODUTO = Operation(
    """query($conta: ID!, $contaId: String!, $codigo: String!) {
      conta(id: $conta) { id nome }
      produto(contaId: $contaId, codigo: $codigo) { ...ProdutoFields ficha fotos { itens { miniaturaUrl } } }
      precos { tipo creditos unidade descricao }
    }"""
    + fragments.PRODUTO
)
VEREDITO = Operation(
    """query($produtoId: String!) {
      conferencia(produtoId: $produtoId) { ...ConferenciaFields }
      geracoes(produtoId: $produtoId, limite: 10) { itens { ...GeracaoFields } }
    }"""
    + fragments.CONFERENCIA
    + fragments.GERACAO
)
CONFERIR = Operation(
    "mutation($produtoId: String!) { conferirProduto(produtoId: $produtoId, refazer: true) { id situacao } }"
)
GALERIA = Operation("mutation($dados: NovaGaleriaInput!) { criarGaleria(dados: $dados) { id } }")
VIDEO = Operation("mutation($dados: NovoVideoInput!) { criarVideo(dados: $dados) { id } }")
MODELOS = {"galeria": NovaGaleria, "video": NovoVideo}  # each order form's input

TIPOS_MIDIA = {
    "galeria": "Galeria de imagens",
    "video_apresentacao": "Vídeo de apresentação",
    "video_cinepremium": "Vídeo CinePremium",
}
# What each video form field orders (API tipo -> the check's media type).
VIDEOS = {"apresentacao": "video_apresentacao", "cinepremium": "video_cinepremium"}
_IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9_\-]{8,120}")


def _path(conta_id: str, codigo: str) -> str:
    return f"/contas/{conta_id}/produtos/{quote(codigo, safe='')}"


async def _render(page: Page, *, status: int = 200, erros: dict[str, str] | None = None) -> web.Response:
    conta_id, codigo = page.request.match_info["conta"], page.request.match_info["codigo"]
    data = await page.run(PRODUTO, conta=conta_id, contaId=conta_id, codigo=codigo)
    produto = data["produto"]
    veredito = await page.run(VEREDITO, produtoId=produto["id"])
    conferencia = veredito["conferencia"]
    resultados = {r["tipo"]: r for r in (conferencia or {}).get("resultados", [])}
    return page.render(
        "portal/produto.html",
        status=status,
        conta=data["conta"],
        produto=produto,
        conferencia=conferencia,
        resultados=resultados,
        geracoes=veredito["geracoes"]["itens"],
        precos={p["tipo"]: p for p in data["precos"]},
        catalog=CATALOG,
        tipos_midia=TIPOS_MIDIA,
        videos=VIDEOS,
        avatares={a: ROTULOS_AVATAR[a] for a in AVATARES},
        pedido=secrets.token_urlsafe(18),
        erros=erros or {},
        base=_path(conta_id, codigo),
        **vocabulario(),
    )


@routes.get("/contas/{conta}/produtos/{codigo}")
async def produto(page: Page) -> web.StreamResponse:
    return await _render(page)


@routes.post("/contas/{conta}/produtos/{codigo}/conferencia")
async def conferir(page: Page) -> web.StreamResponse:
    conta_id, codigo = page.request.match_info["conta"], page.request.match_info["codigo"]
    data = await page.run(PRODUTO, conta=conta_id, contaId=conta_id, codigo=codigo)
    await page.run(CONFERIR, produtoId=data["produto"]["id"])
    return page.redirect(_path(conta_id, codigo), flash="conferencia_iniciada")


async def _order(page: Page, operation: Operation, form: str, dados: dict) -> web.StreamResponse:
    """Place an order with the form's one-time key: a double submit finds the first order."""
    chave = await page.field("pedido")
    if not _IDEMPOTENCY_KEY.fullmatch(chave):
        chave = secrets.token_urlsafe(18)
    try:
        result = await page.run(operation, idempotency_key=chave, dados=entrada(MODELOS[form], dados))
    except ApiError as error:
        if error.status >= 500 or error.type in ("UNAUTHORIZED", "REAUTHENTICATION_REQUIRED"):
            raise
        detalhes = [f.mensagem for f in error.fields]
        mensagem = " ".join([error.description or error.message or error.kind.message, *detalhes])
        return await _render(page, status=error.status, erros={form: mensagem})
    geracao = next(iter(result.values()))
    return page.redirect(f"/geracoes/{geracao['id']}", flash="pedido_recebido")


async def _produto_id(page: Page) -> str:
    conta_id = page.request.match_info["conta"]
    data = await page.run(PRODUTO, conta=conta_id, contaId=conta_id, codigo=page.request.match_info["codigo"])
    return data["produto"]["id"]


@routes.post("/contas/{conta}/produtos/{codigo}/galeria")
async def pedir_galeria(page: Page) -> web.StreamResponse:
    quantidade = await page.field("quantidadeImagens")
    dados = {"produtoId": await _produto_id(page), "quantidadeImagens": int(quantidade) if quantidade.isdigit() else 0}
    return await _order(page, GALERIA, "galeria", dados)


@routes.post("/contas/{conta}/produtos/{codigo}/video")
async def pedir_video(page: Page) -> web.StreamResponse:
    dados = {
        "produtoId": await _produto_id(page),
        "tipo": await page.field("tipo"),
        "avatar": await page.field("avatar") or "automatico",
    }
    return await _order(page, VIDEO, "video", dados)
