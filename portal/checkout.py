"""The built-in checkout page (graphql_api/recarga/provedores.CheckoutDoPortal): the payment link
of a purchase. It shows the package and its price to the integrator's people who may buy
(creditos:comprar). A test purchase is paid here with play money ("Pagar") or given up
("Recusar"); a production one shows how it is paid (confirmed by the payment provider or the
staff) and can only be given up here. Forms are CSRF-protected by the portal's edge."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.executor import Operation
from graphql_api.operations import fragments
from portal.web import Page, PortalRoutes

routes = PortalRoutes()

CHECKOUT = Operation("query($id: ID!) { checkout(id: $id) { ...RecargaFields } }" + fragments.RECARGA)
RESOLVER = Operation(
    "mutation($id: ID!, $pagar: Boolean!) { resolverCheckout(id: $id, pagar: $pagar) { ...RecargaFields } }"
    + fragments.RECARGA
)
SITUACOES = {"pendente": "Aguardando pagamento", "paga": "Paga", "recusada": "Recusada", "expirada": "Expirada"}


async def _render(page: Page, recarga_id: str, *, erro: str | None = None, status: int = 200) -> web.Response:
    recarga = (await page.run(CHECKOUT, id=recarga_id))["checkout"]
    return page.render(
        "portal/checkout.html",
        status=status,
        recarga=recarga,
        situacoes=SITUACOES,
        erro=erro,
    )


@routes.get("/checkout/{recarga}")
async def checkout(page: Page) -> web.StreamResponse:
    return await _render(page, page.request.match_info["recarga"])


async def _resolver(page: Page, *, pagar: bool) -> web.StreamResponse:
    recarga_id = page.request.match_info["recarga"]
    try:
        await page.run(RESOLVER, id=recarga_id, pagar=pagar)
    except ApiError as error:
        if error.type not in ("PURCHASE_CLOSED", "PAYMENT_NOT_ALLOWED"):
            raise
        return await _render(page, recarga_id, erro=error.description or error.kind.message, status=error.status)
    return page.redirect(f"/checkout/{recarga_id}")


@routes.post("/checkout/{recarga}/pagar")
async def pagar(page: Page) -> web.StreamResponse:
    return await _resolver(page, pagar=True)


@routes.post("/checkout/{recarga}/recusar")
async def recusar(page: Page) -> web.StreamResponse:
    return await _resolver(page, pagar=False)
