"""A public app that is a page in the browser (docs/oauth.md, "Apps no navegador"), in real
Chromium. The integrator registers a public app on the Apps page with a redirect URI on a page
server of its own (http://127.0.0.1:<port>, as test apps may); the page makes the PKCE pair with
Web Crypto and sends the seller to the consent screen; back at the redirect URI it exchanges the
code at /oauth/token with `fetch` (a JSON body: the browser asks first, a CORS preflight) and
reads the linked account from /v1 with the token, reading the exposed X-Request-Id. A page of the
same machine on another port — another origin — is refused by the browser."""

import json
import re
import secrets

import pytest
from aiohttp import web
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import app_in_thread
from e2e.passos import SENHA, Navegador, sign_up

pytestmark = pytest.mark.slow

ESCOPOS = "contas:ler produtos:ler"
LOJA = "Loja do Navegador"

# The app's page: the PKCE pair made in the browser, kept in sessionStorage with the state.
INICIO = """
<h1>Painel da Integradora</h1>
<button id="conectar">Conectar a sua loja</button>
<script>
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
  .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
document.getElementById("conectar").onclick = async () => {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(48)));
  const challenge = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const state = b64url(crypto.getRandomValues(new Uint8Array(16)));
  sessionStorage.setItem("verifier", verifier);
  sessionStorage.setItem("state", state);
  const query = new URLSearchParams({
    response_type: "code", client_id: CONFIG.clientId, redirect_uri: CONFIG.redirectUri, scope: CONFIG.scope,
    state, code_challenge: challenge, code_challenge_method: "S256",
  });
  location.href = `${CONFIG.service}/oauth/autorizar?${query}`;
};
</script>
"""

# Back at the redirect URI: the exchange and a /v1 call, all with fetch from this origin.
RETORNO = """
<h1>De volta ao painel</h1>
<output id="resultado">trocando o código…</output>
<script>
(async () => {
  const out = document.getElementById("resultado");
  try {
    const volta = new URLSearchParams(location.search);
    if (volta.get("state") !== sessionStorage.getItem("state")) throw new Error("state diferente");
    const meta = await (await fetch(`${CONFIG.service}/.well-known/oauth-authorization-server`)).json();
    if (volta.get("iss") !== meta.issuer) throw new Error("iss diferente");
    const resposta = await fetch(meta.token_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        grant_type: "authorization_code", code: volta.get("code"), redirect_uri: CONFIG.redirectUri,
        code_verifier: sessionStorage.getItem("verifier"), client_id: CONFIG.clientId,
      }),
    });
    const token = await resposta.json();
    if (!resposta.ok) throw new Error(JSON.stringify(token));
    const conta = await fetch(`${CONFIG.service}/v1/contas/${token.conta_id}`, {
      headers: { Authorization: `Bearer ${token.access_token}` },
    });
    out.textContent = JSON.stringify({
      status: conta.status, conta: (await conta.json()).data, token: token.access_token,
      requestId: conta.headers.get("X-Request-Id"), limite: conta.headers.get("X-RateLimit-Limit"),
    });
  } catch (erro) {
    out.textContent = `erro: ${erro}`;
  }
})();
</script>
"""

# A page of another origin trying the same with a token it got hold of.
ESTRANHA = """
<h1>Outra página</h1>
<output id="resultado">tentando…</output>
<script>
(async () => {
  const tentar = async (url, options) => {
    try { return `status ${(await fetch(url, options)).status}`; } catch (erro) { return `recusado: ${erro.name}`; }
  };
  const token = new URLSearchParams(location.search).get("token");
  const v1 = await tentar(`${CONFIG.service}/v1/contas`, { headers: { Authorization: `Bearer ${token}` } });
  const metadados = await tentar(`${CONFIG.service}/.well-known/oauth-authorization-server`);
  document.getElementById("resultado").textContent = JSON.stringify({ v1, metadados });
})();
</script>
"""


class PaginaDoApp:
    """A static page server of the integrator's: each page gets CONFIG (service, client_id, ...)."""

    def __init__(self) -> None:
        self.config: dict[str, str] = {}

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self._page(INICIO))
        app.router.add_get("/oauth/retorno", self._page(RETORNO))
        return app

    def _page(self, corpo: str):
        async def handler(request: web.Request) -> web.Response:
            page = (
                '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><link rel="icon" href="data:,">'
                f"<title>Painel</title><script>const CONFIG = {json.dumps(self.config)};</script></head>"
                f"<body>{corpo}</body></html>"
            )
            return web.Response(text=page, content_type="text/html")

        return handler


class PaginaEstranha(PaginaDoApp):
    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self._page(ESTRANHA))
        return app


@pytest.fixture
def pagina_do_app():
    pagina = PaginaDoApp()
    with app_in_thread(pagina.app(), tls=False) as port:
        pagina.config["origin"] = f"http://127.0.0.1:{port}"
        yield pagina


@pytest.fixture
def pagina_estranha():
    pagina = PaginaEstranha()
    with app_in_thread(pagina.app(), tls=False) as port:
        pagina.config["origin"] = f"http://127.0.0.1:{port}"
        yield pagina


def register_public_app(page: Page, service: str, redirect_uri: str) -> str:
    """The integrator signs up and registers a public test app; its client_id."""
    sign_up(page, service, empresa="Integradora do Painel", nome="Paula Pires")
    page.get_by_role("navigation", name="Seções do portal").get_by_role("link", name="Apps").click()
    page.get_by_label("Nome do app").fill("Painel no Navegador")
    page.get_by_label(re.compile("Público")).check()
    page.get_by_label("Endereços de retorno (redirect URIs)").fill(redirect_uri)
    for escopo in ESCOPOS.split():
        page.get_by_label(re.compile(escopo)).check()
    page.get_by_role("button", name="Registrar app").click()
    expect(page.get_by_role("heading", name="App registrado")).to_be_visible()
    return page.get_by_label("client_id", exact=True).input_value()


def test_a_public_apps_page_exchanges_the_code_and_calls_v1_with_fetch(
    page: Page, browser: Browser, service: str, pagina_do_app: PaginaDoApp, pagina_estranha: PaginaEstranha
):
    origem = pagina_do_app.config["origin"]
    redirect_uri = f"{origem}/oauth/retorno"
    client_id = register_public_app(page, service, redirect_uri)
    config = {"service": service, "clientId": client_id, "redirectUri": redirect_uri, "scope": ESCOPOS}
    pagina_do_app.config.update(config)
    pagina_estranha.config.update(config)

    # the seller, in a browser of their own, starts on the integrator's page
    vendedor = browser.new_context()
    loja = vendedor.new_page()
    navegador = Navegador(loja, service)
    loja.goto(f"{origem}/")
    loja.get_by_role("button", name="Conectar a sua loja").click()
    expect(loja).to_have_url(re.compile(r"/vendedor/entrar\?proximo="))
    loja.get_by_role("link", name="Cadastrar a loja").click()
    loja.get_by_label("Nome da loja").fill(LOJA)
    loja.get_by_label("E-mail").fill(f"painel-{secrets.token_hex(4)}@loja.test")
    loja.get_by_label("Senha").fill(SENHA)
    loja.get_by_role("button", name="Cadastrar").click()
    expect(loja.get_by_role("heading", name="Autorizar Painel no Navegador")).to_be_visible()
    expect(loja.locator(".destino strong")).to_have_text(origem.removeprefix("http://"))
    loja.get_by_role("button", name="Autorizar").click()

    # back on the app's page: the code exchanged and the account read, from this origin
    expect(loja.get_by_role("heading", name="De volta ao painel")).to_be_visible()
    resultado = loja.locator("#resultado")
    expect(resultado).to_contain_text('"status"')
    lido = json.loads(resultado.text_content())
    assert lido["status"] == 200 and lido["conta"]["nome"] == LOJA and lido["conta"]["origem"] == "vinculada", lido
    assert re.fullmatch(r"req_[0-9a-z]{26}", lido["requestId"]) and lido["limite"].isdigit(), lido
    assert lido["token"].startswith("oat_test_")
    assert navegador.console_errors == [], navegador.console_errors

    # another origin (the same machine, another port) is refused by the browser, token or not
    estranha = vendedor.new_page()
    erros: list[str] = []
    estranha.on("console", lambda message: erros.append(message.text) if message.type == "error" else None)
    estranha.goto(f"{pagina_estranha.config['origin']}/?token={lido['token']}")
    expect(estranha.locator("#resultado")).to_contain_text("metadados")
    recusa = json.loads(estranha.locator("#resultado").text_content())
    assert recusa == {"v1": "recusado: TypeError", "metadados": "recusado: TypeError"}, recusa
    assert len([m for m in erros if "blocked by CORS policy" in m]) == 2, erros
    vendedor.close()
