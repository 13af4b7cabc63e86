"""Integration: the 8 steps with their evidence, failure and how to complete each, production
access and its request (released, or the steps still missing), the open alerts, and clearing the
test environment's data (after the password) to start the integration over."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.executor import Operation
from graphql_api.operations import fragments
from graphql_api.operations.integracao import LIMPAR_DADOS_DE_TESTE, PEDIR_PRODUCAO
from portal.web import Page, PortalRoutes

routes = PortalRoutes()

INTEGRACAO = Operation(
    """query {
      integracaoStatus { ...IntegracaoStatusFields }
      contratoVigente { versao }
      aceiteContrato { versao aceitoEm }
    }"""
    + fragments.INTEGRACAO_STATUS
)


async def _page(page: Page, *, status: int = 200, recusa: ApiError | None = None) -> web.StreamResponse:
    data = await page.run(INTEGRACAO)
    return page.render(
        "portal/integracao.html",
        status=status,
        integracao=data["integracaoStatus"],
        contrato=data["contratoVigente"],
        aceite=data["aceiteContrato"],
        recusa=recusa,
    )


@routes.get("/integracao")
async def integracao(page: Page) -> web.StreamResponse:
    return await _page(page)


@routes.post("/integracao/producao")
async def pedir_producao(page: Page) -> web.StreamResponse:
    try:
        await page.run(PEDIR_PRODUCAO)
    except ApiError as error:
        if error.type not in ("INTEGRATION_STEPS_PENDING", "FORBIDDEN"):
            raise
        # The refusal is shown where the button is: the steps still missing, or the suspension.
        return await _page(page, status=error.status, recusa=error)
    return page.redirect("/integracao", flash="producao_liberada")


@routes.get("/integracao/limpar")
async def limpar_confirmar(page: Page) -> web.StreamResponse:
    return page.render("portal/integracao_limpar.html", apagados=None)


@routes.post("/integracao/limpar")
async def limpar(page: Page) -> web.StreamResponse:
    # REAUTHENTICATION_REQUIRED asks for the password and comes back to the confirmation.
    apagados = (await page.run(LIMPAR_DADOS_DE_TESTE))["limparDadosDeTeste"]
    return page.render("portal/integracao_limpar.html", apagados=apagados)
