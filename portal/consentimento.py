"""The consent screen, GET/POST /oauth/autorizar: a seller's page (portal/web.py, SELLER).

The request is checked before anyone signs in (graphql_api/oauth/autorizacoes.py): a bad
client_id or redirect_uri is an error page, other errors go back to the app. A seller without a
session signs in (or up) and comes back to the same request. The form posts the request back with
the CSRF token and the seller's decision; the domain checks it all again."""

import re
from urllib.parse import quote

from aiohttp import web

from graphql_api.oauth import retornos
from graphql_api.oauth.schemas import CAMPOS_DO_PEDIDO, PedidoAutorizacao
from graphql_api.operations import oauth as ops
from portal.web import SELLER, Page, PortalRoutes

routes = PortalRoutes(SELLER)

# A web origin (an IPv6 loopback in brackets) or a native app's own scheme, as CSP sources.
_FONTE = re.compile(r"^(https?://([A-Za-z0-9.\-]+|\[[0-9A-Fa-f:]+\])(:[0-9]{1,5})?|[a-z][a-z0-9.\-]*:)$")


def _fonte(url: str) -> str:
    """Where a registered redirect URI sends the browser, as a CSP source: its origin, or its
    scheme for a native app's (com.exemplo.app:). Nothing if it does not look like one: a header
    is never built from anything else."""
    esquema = retornos.esquema_proprio(url)
    fonte = f"{esquema}:" if esquema else (retornos.origem(url) or "")
    return fonte if _FONTE.fullmatch(fonte) else ""


@routes.get("/oauth/autorizar", signed_in=False)
async def consentimento(page: Page) -> web.StreamResponse:
    pedido = PedidoAutorizacao.dados_da_query(page.request.query)
    avaliacao = (await page.run(ops.PEDIDO_AUTORIZACAO, pedido=pedido))["pedidoAutorizacao"]
    if avaliacao["redirecionarPara"]:
        return page.redirect(avaliacao["redirecionarPara"])
    if page.vendedor is None:
        return page.redirect(f"{SELLER.sign_in}?proximo={quote(page.request.path_qs)}")
    response = page.render(
        "vendedor/consentimento.html",
        avaliacao=avaliacao,
        parametros={nome: page.request.query[nome] for nome in CAMPOS_DO_PEDIDO if nome in page.request.query},
    )
    # The decision's answer is a redirect to the app: the form may lead there (CSP form-action
    # also governs where a form submission is redirected).
    csp = response.headers["Content-Security-Policy"]
    response.headers["Content-Security-Policy"] = csp.replace(
        "form-action 'self'", f"form-action 'self' {_fonte(pedido['redirectUri'])}".rstrip()
    )
    return response


@routes.post("/oauth/autorizar")
async def decisao(page: Page) -> web.StreamResponse:
    pedido = PedidoAutorizacao.dados_da_query(await page.form())
    # Only the "Autorizar" button authorises; anything else is the seller saying no.
    operacao = ops.AUTORIZAR_APP if await page.field("decisao") == "autorizar" else ops.RECUSAR_AUTORIZACAO
    destino = await page.run(operacao, pedido=pedido)
    return page.redirect(next(iter(destino.values())))
