"""The sellers' pages: sign-up, sign-in and sign-out with a session of their own (cookie
`vitrine_vendedor`), and "Apps conectados". The same edge as the integrator's portal
(portal/web.py, `SELLER`): CSRF, headers, cookie flags, fixation and local-only `proximo`, which
brings a seller back to the page that asked for the sign-in (the consent page, with its whole
query string)."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.core.inputs import entrada
from graphql_api.operations import oauth as oauth_ops
from graphql_api.operations import vendedor as ops
from graphql_api.vendedor.schemas import CadastroVendedor
from portal.web import SELLER, SELLER_HOME, Page, PortalRoutes, form_errors, sign_in, sign_in_page

routes = PortalRoutes(SELLER)

CADASTRO_FIELDS = {"nome", "email", "senha"}

routes.get("/vendedor/entrar", signed_in=False)(sign_in_page)
routes.post("/vendedor/entrar", signed_in=False)(sign_in)


@routes.get("/vendedor", signed_in=False)
async def raiz(page: Page) -> web.StreamResponse:
    return page.redirect(SELLER_HOME)


@routes.get("/vendedor/cadastro", signed_in=False)
async def cadastro_form(page: Page) -> web.StreamResponse:
    proximo = page.query("proximo")
    if page.vendedor:
        return page.redirect(page.safe_next(proximo))
    return page.render("vendedor/cadastro.html", valores={}, erros={}, erro=None, proximo=proximo)


@routes.post("/vendedor/cadastro", signed_in=False)
async def cadastro(page: Page) -> web.StreamResponse:
    dados = {name: await page.field(name) for name in CADASTRO_FIELDS}
    proximo = await page.field("proximo")
    try:
        criado = await page.run(ops.CADASTRAR_VENDEDOR, dados=entrada(CadastroVendedor, dados))
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        erros, erro = form_errors(error, CADASTRO_FIELDS)
        dados.pop("senha")
        return page.render("vendedor/cadastro.html", status=422, valores=dados, erros=erros, erro=erro, proximo=proximo)
    await page.sign_in(criado["cadastrarVendedor"]["id"])
    if proximo:  # back to what asked for the sign-up (the consent page), untouched
        return page.redirect(page.safe_next(proximo))
    return page.redirect(SELLER_HOME, flash="vendedor_bem_vindo")


@routes.post("/vendedor/sair")
async def sair(page: Page) -> web.StreamResponse:
    await page.sign_out()
    return page.redirect(SELLER.sign_in, flash="saiu")


@routes.get("/vendedor/apps")
async def apps(page: Page) -> web.StreamResponse:
    vendedor = (await page.run(ops.VENDEDOR_ATUAL))["vendedorAtual"]
    conectados = (await page.run(oauth_ops.APPS_CONECTADOS))["appsConectados"]
    return page.render("vendedor/apps.html", eu=vendedor, apps=conectados)


@routes.post("/vendedor/apps/{appId}/revogar")
async def revogar(page: Page) -> web.StreamResponse:
    """Same effect as /oauth/revogar: every authorisation of the seller to the app ends, its tokens
    answer 401 at once and the linked account pauses (until the seller authorises it again)."""
    await page.run(oauth_ops.REVOGAR_APP_CONECTADO, appId=page.request.match_info["appId"])
    return page.redirect(SELLER_HOME, flash="app_revogado")
