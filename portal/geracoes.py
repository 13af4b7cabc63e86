"""Generations: the list, and one generation with a progress bar htmx refreshes while it renders,
then its gallery as images and its videos playable in the page."""

from __future__ import annotations

from aiohttp import web

from graphql_api.executor import Operation
from graphql_api.operations import fragments
from portal.web import Page, PortalRoutes

routes = PortalRoutes()

POLL_SECONDS = 1
TERMINAIS = ("concluida", "parcial", "falhou")
TIPOS = {
    "galeria": "Galeria",
    "video_apresentacao": "Vídeo de apresentação",
    "video_cinepremium": "Vídeo CinePremium",
    "edicao_imagem": "Edição de imagem",
}
SITUACOES = {
    "na_fila": "na fila",
    "processando": "processando",
    "concluida": "concluída",
    "parcial": "parcial",
    "falhou": "falhou",
}

LISTAR = Operation(
    """query($cursor: String) {
      geracoes(limite: 25, cursor: $cursor) { itens { ...GeracaoFields } """
    + fragments.PAGINACAO
    + """ }
    }"""
    + fragments.GERACAO
)
GERACAO = Operation("query($id: ID!) { geracao(id: $id) { ...GeracaoFields } }" + fragments.GERACAO)


def vocabulario() -> dict:
    """What the generation templates name things with (also used by the product page)."""
    return {"tipos": TIPOS, "situacoes": SITUACOES, "terminais": TERMINAIS, "poll_seconds": POLL_SECONDS}


@routes.get("/geracoes")
async def geracoes(page: Page) -> web.StreamResponse:
    result = (await page.run(LISTAR, cursor=page.query("cursor") or None))["geracoes"]
    return page.render(
        "portal/geracoes.html", geracoes=result["itens"], proximo=result["paginacao"]["proximoCursor"], **vocabulario()
    )


@routes.get("/geracoes/{id}")
async def geracao(page: Page) -> web.StreamResponse:
    data = await page.run(GERACAO, id=page.request.match_info["id"])
    return page.render("portal/geracao.html", geracao=data["geracao"], **vocabulario())


@routes.get("/geracoes/{id}/andamento")
async def andamento(page: Page) -> web.StreamResponse:
    """The part of the page htmx replaces every second until the generation ends."""
    data = await page.run(GERACAO, id=page.request.match_info["id"])
    return page.render("portal/_geracao.html", geracao=data["geracao"], **vocabulario())
