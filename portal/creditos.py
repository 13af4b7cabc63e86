"""Credits: the wallet's statement (the ledger, newest first, paginated) and, in teste, the free
refill of play credits (roles with creditos:comprar: owners and finance)."""

from aiohttp import web

from graphql_api.executor import Operation
from graphql_api.operations import fragments
from portal.web import Page, PortalRoutes

routes = PortalRoutes()

PAGE_SIZE = 50
EXTRATO = Operation(
    """query($cursor: String) {
      saldo { ...SaldoFields }
      extrato(limite: """
    + str(PAGE_SIZE)
    + """, cursor: $cursor) {
        itens { id tipo creditosDisponiveis creditosReservados geracaoId descricao criadoEm } """
    + fragments.PAGINACAO
    + """
      }
    }"""
    + fragments.SALDO
)
RECARREGAR = Operation("mutation { recarregarTeste { creditosDisponiveis } }")
TIPOS = {"reserva": "Reserva", "captura": "Cobrança", "liberacao": "Devolução", "recarga": "Recarga"}


@routes.get("/extrato")
async def extrato(page: Page) -> web.StreamResponse:
    data = await page.run(EXTRATO, cursor=page.query("cursor") or None)
    return page.render(
        "portal/extrato.html",
        saldo=data["saldo"],
        lancamentos=data["extrato"]["itens"],
        proximo=data["extrato"]["paginacao"]["proximoCursor"],
        tipos=TIPOS,
    )


@routes.post("/extrato/recarregar")
async def recarregar(page: Page) -> web.StreamResponse:
    await page.run(RECARREGAR)
    return page.redirect("/extrato", aviso="recarregado")
