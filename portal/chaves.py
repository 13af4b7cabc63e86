"""API keys: create (the whole key shown once), list by identifier with each key's last use and a
link to its calls, revoke with confirmation."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.executor import Operation
from portal.web import Page, PortalRoutes, form_errors

routes = PortalRoutes()

LISTAR = Operation(
    "query { chaves { identificador nome ambiente ativa criadoEm revogadaEm ultimoUsoEm } "
    "bloqueioChaveProducao { tipo mensagem } }"
)
CRIAR = Operation(
    "mutation($nome: String!) { criarChave(nome: $nome) { token chave { identificador nome ambiente criadoEm } } }"
)
REVOGAR = Operation("mutation($id: String!) { revogarChave(identificador: $id) }")


async def _listing(page: Page, *, status: int = 200, **extra) -> web.StreamResponse:
    data = await page.run(LISTAR)
    context = {"nova": None, "erros": {}, "erro": None, "erro_tipo": None, "nome": ""} | extra
    return page.render(
        "portal/chaves.html", status=status, chaves=data["chaves"], bloqueio=data["bloqueioChaveProducao"], **context
    )


@routes.get("/chaves")
async def chaves(page: Page) -> web.StreamResponse:
    return await _listing(page)


@routes.post("/chaves")
async def criar(page: Page) -> web.StreamResponse:
    nome = await page.field("nome")
    try:
        criada = (await page.run(CRIAR, nome=nome))["criarChave"]
    except ApiError as error:
        if error.type not in ("VALIDATION_FAILED", "PRODUCTION_NOT_RELEASED", "CONTRACT_NOT_ACCEPTED", "FORBIDDEN"):
            raise
        erros, erro = form_errors(error, {"nome"})
        return await _listing(page, status=error.status, erros=erros, erro=erro, erro_tipo=error.type, nome=nome)
    # Rendered, not redirected: the whole key exists only in this response (Cache-Control: no-store).
    return await _listing(page, status=201, nova=criada)


@routes.get("/chaves/{identificador}/revogar")
async def revogar_confirmar(page: Page) -> web.StreamResponse:
    identificador = page.request.match_info["identificador"]
    chave = next(
        (c for c in (await page.run(LISTAR))["chaves"] if c["identificador"] == identificador and c["ativa"]), None
    )
    if chave is None:
        raise ApiError("NOT_FOUND", description="Chave inexistente ou já revogada.")
    return page.render("portal/chave_revogar.html", chave=chave)


@routes.post("/chaves/{identificador}/revogar")
async def revogar(page: Page) -> web.StreamResponse:
    await page.run(REVOGAR, id=page.request.match_info["identificador"])
    return page.redirect("/chaves", flash="chave_revogada")
