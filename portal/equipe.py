"""The team: owners invite people with a role (an e-mailed link to choose the password), change
roles and remove people. The rules (last owner, not yourself) live in graphql_api/usuario/equipe.py."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.core.inputs import entrada
from graphql_api.executor import Operation
from graphql_api.usuario.schemas import Convite
from portal.web import Page, PortalRoutes, form_errors

routes = PortalRoutes()

_CAMPOS = "id nome email papel pendente criadoEm ultimoAcessoEm"
LISTAR = Operation("query { usuarios { " + _CAMPOS + " } }")
CONVIDAR = Operation("mutation($dados: ConviteInput!) { convidarUsuario(dados: $dados) { id } }")
ALTERAR_PAPEL = Operation(
    "mutation($id: String!, $papel: String!) { alterarPapel(usuarioId: $id, papel: $papel) { id } }"
)
REMOVER = Operation("mutation($id: String!) { removerUsuario(usuarioId: $id) }")

CONVITE_FIELDS = {"nome", "email", "papel"}


async def _team(page: Page, *, status: int = 200, **extra) -> web.StreamResponse:
    context = {"valores": {}, "erros": {}, "erro": None, "erro_de": None} | extra
    return page.render("portal/equipe.html", status=status, usuarios=(await page.run(LISTAR))["usuarios"], **context)


@routes.get("/equipe")
async def equipe(page: Page) -> web.StreamResponse:
    return await _team(page)


@routes.post("/equipe")
async def convidar(page: Page) -> web.StreamResponse:
    dados = {name: await page.field(name) for name in CONVITE_FIELDS}
    try:
        await page.run(CONVIDAR, dados=entrada(Convite, dados))
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        erros, erro = form_errors(error, CONVITE_FIELDS)
        return await _team(page, status=422, valores=dados, erros=erros, erro=erro)
    return page.redirect("/equipe", flash="convite_enviado")


@routes.post("/equipe/{id}/papel")
async def alterar_papel(page: Page) -> web.StreamResponse:
    usuario_id = page.request.match_info["id"]
    try:
        await page.run(ALTERAR_PAPEL, id=usuario_id, papel=await page.field("papel"))
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        return await _team(page, status=422, erro_de=(usuario_id, form_errors(error, set())[1]))
    return page.redirect("/equipe", flash="papel_alterado")


@routes.get("/equipe/{id}/remover")
async def remover_confirmar(page: Page) -> web.StreamResponse:
    usuario_id = page.request.match_info["id"]
    usuario = next((u for u in (await page.run(LISTAR))["usuarios"] if u["id"] == usuario_id), None)
    if usuario is None:
        raise ApiError("NOT_FOUND", description="Pessoa não encontrada neste integrador.")
    return page.render("portal/usuario_remover.html", usuario=usuario)


@routes.post("/equipe/{id}/remover")
async def remover(page: Page) -> web.StreamResponse:
    usuario_id = page.request.match_info["id"]
    try:
        await page.run(REMOVER, id=usuario_id)
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        return await _team(page, status=422, erro_de=(usuario_id, form_errors(error, set())[1]))
    return page.redirect("/equipe", flash="usuario_removido")
