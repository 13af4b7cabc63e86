"""The outbox: every e-mail the service sent (or, without SMTP, kept) for this integrator."""

from aiohttp import web

from graphql_api.executor import Operation
from graphql_api.operations import fragments
from portal.web import Page, PortalRoutes

routes = PortalRoutes()

_CAMPOS = "id para assunto tipo situacao tentativas erro criadoEm enviadoEm"
LISTAR = Operation(
    "query($cursor: String) { emails(limite: 50, cursor: $cursor) { itens { "
    + _CAMPOS
    + " } "
    + fragments.PAGINACAO
    + " } }"
)
DETALHE = Operation("query($id: ID!) { email(id: $id) { " + _CAMPOS + " texto oculto } }")


@routes.get("/emails")
async def emails(page: Page) -> web.StreamResponse:
    result = (await page.run(LISTAR, cursor=page.query("cursor") or None))["emails"]
    return page.render("portal/emails.html", emails=result["itens"], proximo=result["paginacao"]["proximoCursor"])


@routes.get("/emails/{id}")
async def email(page: Page) -> web.StreamResponse:
    email = (await page.run(DETALHE, id=page.request.match_info["id"]))["email"]
    return page.render("portal/email.html", email=email)
