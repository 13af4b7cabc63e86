"""Getting in and out: sign-up, sign-in, sign-out, password links, re-authentication and the
environment switch. Sign-up and password links are GraphQL mutations; the session itself is
authentication at the edge (graphql_api/usuario/autenticacao.py and sessoes.py), like API keys at the facade;
the sign-in views are the edge's own (portal/web.py), shared with the sellers' pages."""

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.core.inputs import entrada
from graphql_api.executor import Operation
from graphql_api.usuario import sessoes
from graphql_api.usuario.schemas import Cadastro
from portal.web import HOME, Page, PortalRoutes, form_errors, safe_next, sign_in, sign_in_page

routes = PortalRoutes()

CADASTRAR = Operation("mutation($dados: CadastroInput!) { cadastrarIntegrador(dados: $dados) { id } }")
PEDIR_REDEFINICAO = Operation("mutation($email: String!) { pedirRedefinicaoSenha(email: $email) }")
LINK_SENHA = Operation("query($token: String!) { linkSenha(token: $token) { motivo nome email expiraEm } }")
DEFINIR_SENHA = Operation(
    "mutation($token: String!, $senha: String!) { definirSenha(token: $token, senha: $senha) { id } }"
)

CADASTRO_FIELDS = {"empresa", "emailAlertas", "nome", "email", "senha"}


@routes.get("/", signed_in=False)
async def raiz(page: Page) -> web.StreamResponse:
    return page.redirect(HOME if page.sessao else "/entrar")


@routes.get("/cadastro", signed_in=False)
async def cadastro_form(page: Page) -> web.StreamResponse:
    if page.sessao:
        return page.redirect(HOME)
    return page.render("portal/cadastro.html", valores={}, erros={}, erro=None)


@routes.post("/cadastro", signed_in=False)
async def cadastro(page: Page) -> web.StreamResponse:
    dados = {name: await page.field(name) for name in CADASTRO_FIELDS}
    try:
        criado = await page.run(CADASTRAR, dados=entrada(Cadastro, dados))
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        erros, erro = form_errors(error, CADASTRO_FIELDS)
        dados.pop("senha")
        return page.render("portal/cadastro.html", status=422, valores=dados, erros=erros, erro=erro)
    await page.sign_in(criado["cadastrarIntegrador"]["id"])
    return page.redirect(HOME, flash="bem_vindo")


routes.get("/entrar", signed_in=False)(sign_in_page)
routes.post("/entrar", signed_in=False)(sign_in)


@routes.post("/sair")
async def sair(page: Page) -> web.StreamResponse:
    await page.sign_out()
    return page.redirect("/entrar", flash="saiu")


@routes.get("/senha/esqueci", signed_in=False)
async def esqueci_form(page: Page) -> web.StreamResponse:
    return page.render("portal/esqueci.html")


@routes.post("/senha/esqueci", signed_in=False)
async def esqueci(page: Page) -> web.StreamResponse:
    await page.run(PEDIR_REDEFINICAO, email=await page.field("email"))
    return page.redirect("/entrar", flash="link_enviado")


@routes.get("/senha/definir", signed_in=False)
async def definir_form(page: Page) -> web.StreamResponse:
    token = page.query("token")
    link = (await page.run(LINK_SENHA, token=token))["linkSenha"] if token else None
    return page.render(
        "portal/definir_senha.html", status=200 if link else 410, link=link, token=token, erros={}, erro=None
    )


@routes.post("/senha/definir", signed_in=False)
async def definir(page: Page) -> web.StreamResponse:
    token = await page.field("token")
    try:
        await page.run(DEFINIR_SENHA, token=token, senha=await page.field("senha"))
    except ApiError as error:
        if error.type != "VALIDATION_FAILED":
            raise
        erros, erro = form_errors(error, {"senha"})
        link = (await page.run(LINK_SENHA, token=token))["linkSenha"]
        return page.render("portal/definir_senha.html", status=422, link=link, token=token, erros=erros, erro=erro)
    page.set_session(None)  # every session of that person ended with the new password
    return page.redirect("/entrar", flash="senha_definida")


@routes.get("/reautenticar")
async def reautenticar_form(page: Page) -> web.StreamResponse:
    return page.render("portal/reautenticar.html", proximo=safe_next(page.query("proximo")), erros={}, erro=None)


@routes.post("/reautenticar")
async def reautenticar(page: Page) -> web.StreamResponse:
    proximo = await page.field("proximo")
    try:
        await sessoes.reautenticar(page.sessao_ativa, await page.field("senha"), ip=page.ip)
    except ApiError as error:
        if error.type not in ("VALIDATION_FAILED", "TOO_MANY_REQUESTS"):
            raise
        erros, erro = form_errors(error, {"senha"})
        return page.render(
            "portal/reautenticar.html", status=error.status, proximo=safe_next(proximo), erros=erros, erro=erro
        )
    return page.redirect(safe_next(proximo), flash="reautenticado")


@routes.post("/ambiente")
async def ambiente(page: Page) -> web.StreamResponse:
    await sessoes.trocar_ambiente(page.sessao_ativa, await page.field("ambiente"))
    return page.redirect(safe_next(await page.field("proximo")))
