"""The consent screen, GET/POST /oauth/autorizar: a seller's page (portal/web.py, SELLER).

The request is checked before anyone signs in (graphql_api/oauth/autorizacoes.py): a bad
client_id or redirect_uri is an error page, other errors go back to the app. A seller without a
session signs in (or up) and comes back to the same request. The form posts the request back with
the CSRF token and the seller's decision; the domain checks it all again."""

import re
from urllib.parse import quote, urlsplit

from aiohttp import web
from multidict import MultiMapping

from graphql_api.oauth.autorizacoes import PARAMETROS
from graphql_api.operations import oauth as ops
from portal.web import SELLER, Page, PortalRoutes

routes = PortalRoutes(SELLER)

# The input's field for each query parameter of the contract.
CAMPOS = {
    "response_type": "responseType",
    "client_id": "clientId",
    "redirect_uri": "redirectUri",
    "scope": "scope",
    "state": "state",
    "code_challenge": "codeChallenge",
    "code_challenge_method": "codeChallengeMethod",
}
assert set(CAMPOS) == set(PARAMETROS)


def _pedido(campos: MultiMapping[str]) -> dict:
    """PedidoAutorizacaoInput from the query (or the form that carried it back)."""
    pedido: dict = {CAMPOS[nome]: campos[nome] for nome in PARAMETROS if isinstance(campos.get(nome), str)}
    pedido["parametrosRepetidos"] = [nome for nome in PARAMETROS if len(campos.getall(nome, [])) > 1]
    return pedido


_ORIGEM = re.compile(r"^https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?$")


def _origem(url: str) -> str:
    """The scheme, host and port of a registered redirect URI, as a CSP source ('none' of
    ours if it does not look like one: a header is never built from anything else)."""
    partes = urlsplit(url)
    origem = f"{partes.scheme}://{partes.netloc}"
    return origem if _ORIGEM.fullmatch(origem) else ""


@routes.get("/oauth/autorizar", signed_in=False)
async def consentimento(page: Page) -> web.StreamResponse:
    pedido = _pedido(page.request.query)
    avaliacao = (await page.run(ops.PEDIDO_AUTORIZACAO, pedido=pedido))["pedidoAutorizacao"]
    if avaliacao["redirecionarPara"]:
        return page.redirect(avaliacao["redirecionarPara"])
    if page.vendedor is None:
        return page.redirect(f"{SELLER.sign_in}?proximo={quote(page.request.path_qs)}")
    response = page.render(
        "vendedor/consentimento.html",
        avaliacao=avaliacao,
        parametros={nome: page.request.query[nome] for nome in PARAMETROS if nome in page.request.query},
    )
    # The decision's answer is a redirect to the app: the form may lead there (CSP form-action
    # also governs where a form submission is redirected).
    csp = response.headers["Content-Security-Policy"]
    response.headers["Content-Security-Policy"] = csp.replace(
        "form-action 'self'", f"form-action 'self' {_origem(pedido['redirectUri'])}".rstrip()
    )
    return response


@routes.post("/oauth/autorizar")
async def decisao(page: Page) -> web.StreamResponse:
    pedido = _pedido(await page.form())
    # Only the "Autorizar" button authorises; anything else is the seller saying no.
    operacao = ops.AUTORIZAR_APP if await page.field("decisao") == "autorizar" else ops.RECUSAR_AUTORIZACAO
    destino = await page.run(operacao, pedido=pedido)
    return page.redirect(next(iter(destino.values())))
