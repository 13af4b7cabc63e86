"""Credits: the wallet's statement (the ledger, newest first, paginated), the free refill of test
play credits, and buying a single package (roles with creditos:comprar: owners and finance),
which leads to the purchase's payment link (the checkout page, portal/checkout.py)."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.executor import Operation
from graphql_api.operations import fragments
from graphql_api.operations import recarga as ops_recarga
from portal.checkout import SITUACOES, reais
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
      pacotes { ...PacoteFields }
      recargas(limite: 5) { itens { ...RecargaFields } }
    }"""
    + fragments.SALDO
    + fragments.PACOTE
    + fragments.RECARGA
)
RECARREGAR = Operation("mutation { recarregarTeste { creditosDisponiveis } }")
TIPOS = {
    "reserva": "Reserva",
    "captura": "Cobrança",
    "liberacao": "Devolução",
    "recarga": "Recarga",
    "compra_pacote": "Compra de pacote",
}


async def _render(page: Page, *, erro: str | None = None, status: int = 200) -> web.Response:
    data = await page.run(EXTRATO, cursor=page.query("cursor") or None)
    return page.render(
        "portal/extrato.html",
        status=status,
        saldo=data["saldo"],
        lancamentos=data["extrato"]["itens"],
        proximo=data["extrato"]["paginacao"]["proximoCursor"],
        tipos=TIPOS,
        pacotes=[p | {"preco": reais(p["precoCentavos"])} for p in data["pacotes"]],
        recargas=[r | {"preco": reais(r["precoCentavos"])} for r in data["recargas"]["itens"]],
        situacoes=SITUACOES,
        erro_compra=erro,
    )


@routes.get("/extrato")
async def extrato(page: Page) -> web.StreamResponse:
    return await _render(page)


@routes.post("/extrato/recarregar")
async def recarregar(page: Page) -> web.StreamResponse:
    await page.run(RECARREGAR)
    return page.redirect("/extrato", aviso="recarregado")


@routes.post("/extrato/comprar")
async def comprar(page: Page) -> web.StreamResponse:
    """A purchase of the chosen package, then on to its payment link."""
    try:
        recarga = await page.run(ops_recarga.CRIAR_RECARGA, dados={"pacote": await page.field("pacote")})
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        return await _render(page, erro=" ".join(f.mensagem for f in error.fields), status=error.status)
    return page.redirect(recarga["criarRecarga"]["linkPagamento"])
