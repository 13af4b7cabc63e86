"""The integration contract: the current version's text and whether, when and by whom it was
accepted. Owners accept it after typing the password again (the rules: integracao/contrato.py)."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.executor import Operation
from portal.web import Page, PortalRoutes, form_errors

routes = PortalRoutes()

CONTRATO = Operation(
    "query { contratoVigente { versao titulo texto publicadoEm } aceiteContrato { versao aceitoPor aceitoEm } }"
)
ACEITAR = Operation("mutation($versao: Int!) { aceitarContrato(versao: $versao) { versao aceitoEm } }")


async def _page(page: Page, *, status: int = 200, erro: str | None = None) -> web.StreamResponse:
    data = await page.run(CONTRATO)
    return page.render(
        "portal/contrato.html",
        status=status,
        contrato=data["contratoVigente"],
        aceite=data["aceiteContrato"],
        erro=erro,
    )


@routes.get("/contrato")
async def contrato(page: Page) -> web.StreamResponse:
    return await _page(page)


@routes.post("/contrato")
async def aceitar(page: Page) -> web.StreamResponse:
    versao = await page.field("versao")
    try:
        await page.run(ACEITAR, versao=int(versao) if versao.isdigit() else 0)
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise  # REAUTHENTICATION_REQUIRED asks for the password and comes back here
        # A new version was published while the page was open: show it and say so.
        return await _page(page, status=422, erro=form_errors(error, set())[1])
    return page.redirect("/contrato", flash="contrato_aceito")
