"""Accounts of the current environment and the products of one account."""

from aiohttp import web

from graphql_api.executor import Operation
from graphql_api.operations import fragments
from portal.web import Page, PortalRoutes

routes = PortalRoutes()

LISTAR = Operation(
    """query($cursor: String) {
      contas(limite: 50, cursor: $cursor) { itens { ...ContaFields } """
    + fragments.PAGINACAO
    + """ }
    }"""
    + fragments.CONTA
)
CONTA = Operation(
    """query($id: ID!, $contaId: String!, $cursor: String) {
      conta(id: $id) { ...ContaFields }
      produtos(contaId: $contaId, limite: 50, cursor: $cursor) {
        itens { id codigo nome situacao versao fotos { recebidas aprovadas } atualizadoEm }
        """
    + fragments.PAGINACAO
    + """
      }
    }"""
    + fragments.CONTA
)


@routes.get("/contas")
async def contas(page: Page) -> web.StreamResponse:
    result = (await page.run(LISTAR, cursor=page.query("cursor") or None))["contas"]
    return page.render("portal/contas.html", contas=result["itens"], proximo=result["paginacao"]["proximoCursor"])


@routes.get("/contas/{id}")
async def conta(page: Page) -> web.StreamResponse:
    conta_id = page.request.match_info["id"]
    data = await page.run(CONTA, id=conta_id, contaId=conta_id, cursor=page.query("cursor") or None)
    produtos = data["produtos"]
    return page.render(
        "portal/conta.html",
        conta=data["conta"],
        produtos=produtos["itens"],
        proximo=produtos["paginacao"]["proximoCursor"],
    )
