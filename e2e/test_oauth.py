"""A seller and an integrator's OAuth app in a real browser. The app's side is a real HTTP server
started by the test on 127.0.0.1 (its redirect URI), which records what the browser brings back.
A new seller opens the authorisation address an integrator built (PKCE S256, state), signs up
from the sign-in page and comes back to the consent screen (docs/screenshots/consentimento.png),
authorises; the app exchanges the code and reads the linked account with the oat_ token. Then
"Cancelar" on a second request, a page of the app's that tries to frame the consent screen, and
the revocation from "Apps conectados" (docs/screenshots/apps-conectados.png) that turns the token
401 at once."""

import re
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from aiohttp import web
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import app_in_thread
from e2e.passos import SENHA, Navegador, api, exchange_code, pkce, refresh_docs_screenshot, sign_up
from graphql_api.oauth.escopos import DESCRICOES

pytestmark = pytest.mark.slow

ESCOPOS = ["contas:ler", "produtos:ler", "geracoes:criar"]
APP = "Conector da Loja Rosa"
INTEGRADOR = "Integradora Rosa"
LOJA = "Loja da Rosa"


class AppDoIntegrador:
    """The integrator's web app: its redirect URI records each query the browser brings back and
    answers a small page; another page of it tries to show `moldura` (the consent screen) in an
    iframe, beside a frame of its own that any browser shows."""

    def __init__(self) -> None:
        self.retornos: list[dict[str, str]] = []
        self.moldura = ""
        self.url = ""

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/retorno", self.retorno)
        app.router.add_get("/quadro", self.quadro)
        app.router.add_get("/moldura", self.pagina_com_moldura)
        return app

    @staticmethod
    def _html(corpo: str) -> web.Response:
        page = f'<!doctype html><html lang="pt-BR"><head><link rel="icon" href="data:,"><title>App</title></head><body>{corpo}</body></html>'
        return web.Response(text=page, content_type="text/html")

    async def retorno(self, request: web.Request) -> web.Response:
        self.retornos.append(dict(request.query))
        return self._html("<h1>De volta ao Conector</h1>")

    async def quadro(self, request: web.Request) -> web.Response:
        return self._html("<p>Quadro do próprio app</p>")

    async def pagina_com_moldura(self, request: web.Request) -> web.Response:
        return self._html(
            '<iframe id="quadro" src="/quadro"></iframe>'
            f'<iframe id="consentimento" name="consentimento" src="{self.moldura}" width="800" height="600"></iframe>'
        )


@pytest.fixture
def app_do_integrador():
    app = AppDoIntegrador()
    with app_in_thread(app.app(), tls=False) as port:
        app.url = f"http://127.0.0.1:{port}"
        yield app


def authorization_url(service: str, client_id: str, redirect_uri: str, challenge: str, state: str) -> str:
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "scope": " ".join(ESCOPOS),
        "state": state,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    return f"{service}/oauth/autorizar?{urlencode(query)}"


def register_app(page: Page, service: str, redirect_uri: str) -> tuple[str, str]:
    """The integrator signs up and registers a confidential test app on the Apps page; its
    client_id and client_secret, read from the one page showing the secret."""
    sign_up(page, service, empresa=INTEGRADOR, nome="Rosa Ramos")
    page.get_by_role("navigation", name="Seções do portal").get_by_role("link", name="Apps").click()
    page.get_by_label("Nome do app").fill(APP)
    page.get_by_label(re.compile("Confidencial")).check()
    page.get_by_label("Endereços de retorno (redirect URIs)").fill(redirect_uri)
    for escopo in ESCOPOS:
        page.get_by_label(re.compile(escopo)).check()
    page.get_by_role("button", name="Registrar app").click()
    return page.get_by_label("client_id", exact=True).input_value(), page.get_by_label(
        "client_secret", exact=True
    ).input_value()


def test_a_seller_signs_up_consents_cancels_and_revokes(
    page: Page, browser: Browser, service: str, artifacts, app_do_integrador: AppDoIntegrador
):
    redirect_uri = f"{app_do_integrador.url}/retorno"
    client_id, secret = register_app(page, service, redirect_uri)
    assert re.fullmatch(r"app_[0-9a-z]{26}", client_id) and secret.startswith("cs_test_")

    # the seller: a browser of their own, never signed in
    vendedor = browser.new_context(viewport={"width": 1280, "height": 800})
    loja = vendedor.new_page()
    navegador = Navegador(loja, service)

    def shot(name: str, docs: bool = False) -> None:
        path = artifacts / f"{name}.png"
        loja.screenshot(path=str(path), full_page=True)
        if docs:
            refresh_docs_screenshot(name, path.read_bytes())

    # Journey A. The integrator sends the seller to the consent screen: sign-in first, sign-up from there
    verifier, challenge = pkce()
    state = secrets.token_urlsafe(16)
    loja.goto(authorization_url(service, client_id, redirect_uri, challenge, state))
    expect(loja).to_have_url(re.compile(r"/vendedor/entrar\?proximo="))
    expect(loja.get_by_label("E-mail")).to_be_visible()
    expect(loja.get_by_label("Senha")).to_be_visible()
    expect(loja.get_by_role("button", name="Entrar")).to_be_visible()
    loja.get_by_role("link", name="Cadastrar a loja").click()
    loja.get_by_label("Nome da loja").fill(LOJA)
    loja.get_by_label("E-mail").fill(f"rosa-{secrets.token_hex(4)}@loja.test")
    loja.get_by_label("Senha").fill(SENHA)
    loja.get_by_role("button", name="Cadastrar").click()

    # back to the same request: the app, its integrator, each permission in Portuguese, no e-mail
    expect(loja).to_have_url(re.compile(r"/oauth/autorizar\?"))
    assert parse_qs(urlsplit(loja.url).query)["state"] == [state]
    expect(loja.get_by_role("heading", name=f"Autorizar {APP}")).to_be_visible()
    consent = loja.locator(".consent")
    expect(consent).to_contain_text(f"O app {APP}, do integrador {INTEGRADOR}")
    expect(consent).to_contain_text(LOJA)
    permissoes = consent.locator(".permissions li")
    expect(permissoes).to_have_text([DESCRICOES[e] for e in ESCOPOS])
    expect(consent).to_contain_text("O integrador verá o nome da sua loja, mas não o seu e-mail.")
    # where the code goes, prominently: the app's address on this machine
    destino = consent.locator(".destino")
    expect(destino.locator("strong")).to_have_text(app_do_integrador.url.removeprefix("http://"))
    expect(destino).to_contain_text("um programa neste computador")
    expect(loja.get_by_role("button", name="Autorizar")).to_be_visible()
    expect(loja.get_by_role("button", name="Cancelar")).to_be_visible()
    shot("consentimento", docs=True)

    loja.get_by_role("button", name="Autorizar").click()
    expect(loja.get_by_role("heading", name="De volta ao Conector")).to_be_visible()
    assert loja.url.startswith(redirect_uri + "?")
    (retorno,) = app_do_integrador.retornos
    assert re.fullmatch(r"oac_\S+", retorno["code"]), retorno
    assert retorno["state"] == state and retorno["iss"] == service, retorno
    assert "error" not in retorno

    # the app's server exchanges the code and reads the linked account, and only it
    token = exchange_code(service, client_id, secret, retorno["code"], redirect_uri, verifier)
    access = token["access_token"]
    assert access.startswith("oat_test_") and token["scope"] == " ".join(ESCOPOS), token
    contas = api(service, "GET", "/contas", access)
    assert contas.status == 200, contas.data
    assert [(c["id"], c["nome"], c["origem"], c["situacao"]) for c in contas.data["data"]] == [
        (token["conta_id"], LOJA, "vinculada", "ativa")
    ]

    # Journey B. A second request, and the seller says no: the app hears access_denied with its state
    _, challenge = pkce()
    state_b = secrets.token_urlsafe(16)
    loja.goto(authorization_url(service, client_id, redirect_uri, challenge, state_b))
    expect(loja.get_by_role("heading", name=f"Autorizar {APP}")).to_be_visible()
    loja.get_by_role("button", name="Cancelar").click()
    expect(loja.get_by_role("heading", name="De volta ao Conector")).to_be_visible()
    assert len(app_do_integrador.retornos) == 2
    cancelado = app_do_integrador.retornos[-1]
    assert cancelado["error"] == "access_denied" and cancelado["state"] == state_b and "code" not in cancelado, (
        cancelado
    )
    assert api(service, "GET", "/contas", access).status == 200  # saying no to a new request ends nothing

    # the app cannot show the consent screen inside a frame of its own (clickjacking)
    app_do_integrador.moldura = authorization_url(
        service, client_id, redirect_uri, challenge, secrets.token_urlsafe(16)
    )
    with loja.expect_response(lambda r: urlsplit(r.url).path == "/oauth/autorizar") as answered:
        loja.goto(f"{app_do_integrador.url}/moldura")
    expect(loja.frame_locator("#quadro").get_by_text("Quadro do próprio app")).to_be_visible()
    # the service answered with the consent screen itself (the seller is signed in), forbidding frames ...
    framed = answered.value
    assert framed.status == 200 and framed.request.frame.name == "consentimento"
    assert "frame-ancestors 'none'" in framed.headers["content-security-policy"]
    assert framed.headers["x-frame-options"] == "DENY"
    # ... and Chromium refused to show it: the frame holds the browser's error page, not the form
    frame = loja.frame(name="consentimento")
    assert frame is not None and frame.url == "chrome-error://chromewebdata/", frame and frame.url
    expect(loja.frame_locator("#consentimento").get_by_role("button", name="Autorizar")).to_have_count(0)
    assert [m for m in navegador.console_errors if "frame-ancestors 'none'" in m and "blocked" in m], (
        navegador.console_errors
    )
    assert len(app_do_integrador.retornos) == 2

    # Journey C. "Apps conectados": the app, its integrator and permissions; "Revogar" ends it at once
    loja.goto(f"{service}/vendedor/apps")
    card = loja.get_by_role("region", name=re.compile(APP))
    expect(card).to_contain_text(INTEGRADOR)
    for escopo in ESCOPOS:
        expect(card).to_contain_text(DESCRICOES[escopo])
    shot("apps-conectados", docs=True)
    card.get_by_role("button", name=re.compile("Revogar")).click()
    expect(loja.get_by_role("status")).to_contain_text("Acesso revogado")
    expect(loja.get_by_role("region", name=re.compile(APP))).to_have_count(0)
    expect(loja.get_by_text("Nenhum app conectado à sua loja.")).to_be_visible()
    revogado = api(service, "GET", "/contas", access)
    assert revogado.status == 401 and revogado.data["error"]["type"] == "UNAUTHORIZED", revogado.data

    # nothing came from anywhere but the service and the app; the one console error is the frame refused
    app_origin = urlsplit(app_do_integrador.url)[:2]
    assert [url for url in navegador.foreign() if urlsplit(url)[:2] != app_origin] == []
    assert len(navegador.console_errors) == 1 and "frame-ancestors 'none'" in navegador.console_errors[0], (
        navegador.console_errors
    )
    vendedor.close()
