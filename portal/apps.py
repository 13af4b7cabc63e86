"""OAuth apps: register one (its client_secret shown once), edit name, redirect URIs and scopes,
rotate the secret (the previous one stops at once or after the overlap window the person chooses)
and disable it for good, each with a confirmation. Every person of the integrator sees the apps; owners and developers change them
(apps:gerenciar)."""

from functools import partial
from typing import Any

from aiohttp import web
from pydantic import BaseModel

from graphql_api.core.errors import ApiError
from graphql_api.core.inputs import entrada
from graphql_api.oauth.schemas import EdicaoApp, NovoApp, RotacaoSegredo, TipoApp, ler
from graphql_api.operations import apps as ops
from portal.web import Page, PortalRoutes, form_errors

routes = PortalRoutes()

GERENCIAR = "apps:gerenciar"
CAMPOS = {"nome", "tipo", "redirectUris", "escopos"}
# What a refused form shows on its own page; anything else (a role without apps:gerenciar,
# production suspended) goes to the error page.
ERROS_DE_FORMULARIO = (
    "VALIDATION_FAILED",
    "OAUTH_APP_LIMIT_REACHED",
    "PRODUCTION_NOT_RELEASED",
    "CONTRACT_NOT_ACCEPTED",
)


async def _valores(page: Page) -> dict:
    """The form as the input wants it: redirect URIs one per line (blank lines ignored)."""
    form = await page.form()
    linhas = (await page.field("redirectUris")).splitlines()
    return {
        "nome": (await page.field("nome")).strip(),
        "tipo": await page.field("tipo"),
        "redirectUris": [u.strip() for u in linhas if u.strip()],
        "escopos": [e for e in form.getall("escopos", []) if isinstance(e, str)],
    }


def _dados(page: Page, model: type[BaseModel], valores: dict, tipo: TipoApp | None = None) -> dict[str, Any] | None:
    """Checked as the service will (the session's environment is the app's; an edited app's
    type, which decides some redirect URIs): every problem at once."""
    return entrada(partial(ler, model, ambiente=page.sessao_ativa.ambiente, tipo=tipo), valores)


def _erros(error: ApiError) -> dict:
    """Errors beside their fields; the redirect URIs may have one per refused address."""
    erros, erro = form_errors(error, CAMPOS)
    return {
        "erros": erros,
        "erro": erro,
        "erro_tipo": error.type,
        "erros_uris": [f.mensagem for f in error.fields if f.campo == "redirectUris"],
    }


async def _listing(page: Page, *, status: int = 200, **extra) -> web.StreamResponse:
    apps = (await page.run(ops.LISTAR_APPS))["appsOAuth"]
    escopos = (await page.run(ops.ESCOPOS_OAUTH))["escoposOAuth"]
    bloqueio = None
    if page.can(GERENCIAR) and page.sessao_ativa.ambiente.value == "producao":
        bloqueio = (await page.run(ops.BLOQUEIO_PRODUCAO))["bloqueioAppOAuthProducao"]
    context = {
        "erros": {},
        "erro": None,
        "erro_tipo": None,
        "erros_uris": [],
        "valores": {"nome": "", "tipo": "confidencial", "redirectUris": [], "escopos": []},
    } | extra
    return page.render("portal/apps.html", status=status, apps=apps, escopos=escopos, bloqueio=bloqueio, **context)


@routes.get("/apps")
async def listar(page: Page) -> web.StreamResponse:
    return await _listing(page)


@routes.post("/apps")
async def criar(page: Page) -> web.StreamResponse:
    valores = await _valores(page)
    try:
        criado = (await page.run(ops.CRIAR_APP, dados=_dados(page, NovoApp, valores)))["criarAppOAuth"]
    except ApiError as error:
        if error.type not in ERROS_DE_FORMULARIO:
            raise  # REAUTHENTICATION_REQUIRED asks for the password and comes back here
        return await _listing(page, status=error.status, valores=valores, **_erros(error))
    # Rendered, not redirected: the secret exists only in this response (Cache-Control: no-store).
    return page.render("portal/app_credenciais.html", status=201, app=criado["app"], segredo=criado["clientSecret"])


async def _detail(page: Page, app_id: str, *, status: int = 200, **extra) -> web.StreamResponse:
    app = (await page.run(ops.OBTER_APP, id=app_id))["appOAuth"]
    escopos = (await page.run(ops.ESCOPOS_OAUTH))["escoposOAuth"]
    context = {"erros": {}, "erro": None, "erro_tipo": None, "erros_uris": [], "valores": app} | extra
    return page.render("portal/app.html", status=status, app=app, escopos=escopos, **context)


@routes.get("/apps/{id}")
async def detalhe(page: Page) -> web.StreamResponse:
    return await _detail(page, page.request.match_info["id"])


@routes.post("/apps/{id}")
async def editar(page: Page) -> web.StreamResponse:
    app_id = page.request.match_info["id"]
    valores = await _valores(page)
    valores.pop("tipo")  # fixed at creation
    tipo = TipoApp((await page.run(ops.OBTER_APP, id=app_id))["appOAuth"]["tipo"])
    try:
        await page.run(ops.EDITAR_APP, id=app_id, dados=_dados(page, EdicaoApp, valores, tipo))
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        return await _detail(page, app_id, status=error.status, valores=valores, **_erros(error))
    return page.redirect(f"/apps/{app_id}", flash="app_atualizado")


async def _confirmar(page: Page, template: str, *, status: int = 200, **extra) -> web.StreamResponse:
    app = (await page.run(ops.OBTER_APP, id=page.request.match_info["id"]))["appOAuth"]
    return page.render(template, status=status, app=app, **extra)


# Hours the current secret keeps working after a rotation, as the form offers them (the first is
# the contract's default: it ends at once).
CARENCIAS = (0, 1, 24, 72, 168)


@routes.get("/apps/{id}/segredo")
async def segredo_confirmar(page: Page) -> web.StreamResponse:
    return await _confirmar(page, "portal/app_segredo.html", carencias=CARENCIAS, erros={}, erro=None)


@routes.post("/apps/{id}/segredo")
async def rotacionar(page: Page) -> web.StreamResponse:
    carencia = (await page.field("carenciaHoras")).strip()
    dados: dict[str, int | str] = {}
    if carencia:  # none sent: the default, at once
        try:
            dados["carenciaHoras"] = int(carencia)
        except ValueError:
            dados["carenciaHoras"] = carencia  # the service reports it beside the field
    try:
        novo = (
            await page.run(
                ops.ROTACIONAR_SEGREDO, id=page.request.match_info["id"], dados=entrada(RotacaoSegredo, dados)
            )
        )["rotacionarSegredoAppOAuth"]
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise  # REAUTHENTICATION_REQUIRED asks for the password and comes back here
        erros, erro = form_errors(error, {"carenciaHoras"})
        return await _confirmar(
            page, "portal/app_segredo.html", status=error.status, carencias=CARENCIAS, erros=erros, erro=erro
        )
    return page.render("portal/app_credenciais.html", app=novo["app"], segredo=novo["clientSecret"], rotacao=True)


@routes.get("/apps/{id}/desativar")
async def desativar_confirmar(page: Page) -> web.StreamResponse:
    return await _confirmar(page, "portal/app_desativar.html")


@routes.post("/apps/{id}/desativar")
async def desativar(page: Page) -> web.StreamResponse:
    await page.run(ops.DESATIVAR_APP, id=page.request.match_info["id"])
    return page.redirect("/apps", flash="app_desativado")
