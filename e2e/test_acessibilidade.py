"""Every portal and docs page, at a laptop's and a phone's size, checked by axe-core (npm) with
zero violations allowed, and by the layout rules axe does not know: nothing wider than the screen,
no table cut off (wide content scrolls inside a region the keyboard can reach), every navigation
item reachable and the current one in view."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.passos import api, create_test_key, refresh_docs_screenshot, register_notice_address, sign_up
from tests.fichas import RICA

pytestmark = pytest.mark.slow

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
PRODUTO = "CANECA-CERAMICA-ESMALTADA-AZUL-350ML-0001"  # a long external code, as catalogues have
PALAVRA = "Supercalifragilisticexpialidocious" * 3  # one word wider than a phone
VIEWPORTS = {"notebook": {"width": 1366, "height": 900}, "celular": {"width": 390, "height": 844}}

# The layout rules, measured in the page: the page itself never scrolls sideways, and every table
# either fits its box or sits in a scroll region that is focusable and named.
LAYOUT_PROBLEMS = """() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1) {
    // name the culprits: the deepest boxes past the right edge that no scroll box holds
    const clipped = e => { for (let a = e.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return true; return false; };
    const past = [...document.body.querySelectorAll("*")].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(e));
    const deepest = past.filter(e => !past.some(o => o !== e && e.contains(o))).slice(0, 3);
    problems.push(`page ${root.scrollWidth}px wide in ${window.innerWidth}px: ` + deepest.map(e => `${e.tagName.toLowerCase()}.${e.className} "${e.textContent.trim().slice(0, 40)}"`).join(", "));
  }
  for (const table of document.querySelectorAll("table")) {
    const box = table.parentElement;
    if (table.offsetWidth <= box.clientWidth + 1) continue;
    const region = table.closest(".table-wrap");
    if (!region) { problems.push(`table ${table.offsetWidth}px in ${box.clientWidth}px with no scroll region`); continue; }
    const style = getComputedStyle(region);
    if (!["auto", "scroll"].includes(style.overflowX)) problems.push("scroll region that does not scroll");
    if (region.tabIndex < 0) problems.push("scroll region the keyboard cannot reach");
    if (region.getAttribute("role") === "region" && !region.getAttribute("aria-label")) problems.push("scroll region without a name");
  }
  return problems;
}"""


def _check(page: Page, name: str) -> list[str]:
    if name == "/docs/referencia":  # rendered in the browser from /v1/openapi.json: wait for it
        page.locator("[id^='operation/']").first.wait_for()
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => `${v.id}: ${v.nodes.length} (${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')})`)"
    )
    return [f"{name}: {problem}" for problem in result + page.evaluate(LAYOUT_PROBLEMS)]


@pytest.fixture(scope="module")
def integrador(browser: Browser, service: str, receptor_modulo) -> dict:
    """An integrator with something on every page: a key, calls (a refused one included), an
    account with a product, a notice address with its test deliveries."""
    context = browser.new_context(viewport=VIEWPORTS["notebook"])
    page = context.new_page()
    sign_up(
        page,
        service,
        empresa="Integradora de Nome Bem Comprido para Testar o Cabeçalho Ltda.",
        nome="Maria Aparecida dos Santos Albuquerque de Vasconcelos",
    )
    key = create_test_key(page)
    api(service, "GET", "/saldo", key)
    assert api(service, "POST", "/contas", key, {"codigoExterno": "loja-recusada", "nome": 7}).status == 422
    criada = api(service, "POST", "/contas", key, {"codigoExterno": "loja-a11y", "nome": "Loja Acessível"})
    assert criada.status == 201, criada.data
    conta = criada.data["data"]
    produto = api(
        service,
        "PUT",
        f"/contas/{conta['id']}/produtos/{PRODUTO}",
        key,
        {**RICA, "imagens": [{"url": f"https://localhost:1/foto-{n}.jpg", "ordem": n} for n in (1, 2, 3)]},
    )
    assert produto.status == 200, produto.data
    aviso = register_notice_address(page, service, receptor_modulo.url, receptor_modulo)
    page.goto(f"{service}{aviso}")
    page.get_by_role("button", name="Enviar entregas de teste").click()
    expect(page.locator("#resultado-testes").get_by_text("passou")).to_have_count(3, timeout=20_000)
    # a sample event, whose delivery opens to what was sent and received
    page.get_by_role("button", name="Enviar evento de teste").click()
    expect(page).to_have_url(re.compile(f"{aviso}/entregas/"))
    entrega = urlsplit(page.url).path
    page.goto(f"{service}/chamadas")
    chamada = page.locator("#lista-chamadas a[href^='/chamadas/req_']").first.get_attribute("href")
    # a person invited with an e-mail wider than a phone (one word, it must break): the invitation (an e-mail in the outbox) and the removal page
    page.goto(f"{service}/equipe")
    convite = page.locator("form", has=page.get_by_role("button", name="Enviar convite"))
    convite.get_by_label("Nome").fill("Joaquim Convidado")
    convite.get_by_label("E-mail").fill(f"joaquim-{PALAVRA.lower()}@integradora.test")
    convite.get_by_role("button", name="Enviar convite").click()
    remover = page.locator("main a[href$='/remover']").first.get_attribute("href")
    page.goto(f"{service}/emails")
    email = page.locator("main a[href^='/emails/eml_']").first.get_attribute("href")
    state = context.storage_state()
    context.close()
    return {
        "state": state,
        "conta": conta["id"],
        "aviso": aviso,
        "entrega": entrega,
        "chamada": chamada,
        "email": email,
        "remover": remover,
    }


@pytest.fixture(scope="module")
def receptor_modulo():
    from e2e.conftest import app_in_thread
    from tests.receptor import Receptor

    receptor = Receptor()
    with app_in_thread(receptor.app()) as port:
        receptor.url = f"https://localhost:{port}/avisos"
        yield receptor


def _portal_pages(integrador: dict) -> list[str]:
    conta = integrador["conta"]
    return [
        "/visao-geral",
        "/integracao",
        "/chaves",
        "/chamadas",
        integrador["chamada"],
        "/avisos",
        integrador["aviso"],
        integrador["entrega"],
        "/integracao/limpar",
        "/apps",
        "/contas",
        f"/contas/{conta}",
        f"/contas/{conta}/produtos/{PRODUTO}",
        "/geracoes",
        "/creditos",
        "/extrato",
        "/plano",
        "/emails",
        integrador["email"],
        "/equipe",
        integrador["remover"],
        "/contrato",
        f"{integrador['aviso']}/segredo",
        "/reautenticar",
        "/uma-pagina-que-nao-existe",
        f"/nada/{PALAVRA}",
    ]


def _capturas(integrador: dict) -> dict[str, str]:
    conta = integrador["conta"]
    return {
        "/visao-geral": "visao-geral",
        "/chaves": "chaves",
        "/chamadas": "chamadas",
        integrador["chamada"]: "chamada",
        "/integracao": "integracao",
        integrador["aviso"]: "aviso",
        integrador["entrega"]: "entrega",
        f"/contas/{conta}/produtos/{PRODUTO}": "produto",
    }


PUBLIC_PAGES = ["/entrar", "/cadastro", "/senha/esqueci", "/vendedor/entrar", "/vendedor/cadastro", "/nada-aqui"]


@pytest.mark.parametrize("tamanho", list(VIEWPORTS))
def test_every_portal_page_has_no_accessibility_violation_and_never_clips(
    browser: Browser, service: str, integrador: dict, tamanho: str
):
    context = browser.new_context(
        viewport=VIEWPORTS[tamanho], storage_state=integrador["state"], bypass_csp=True, timezone_id="America/Sao_Paulo"
    )
    page = context.new_page()
    problems: list[str] = []
    capturas = _capturas(integrador)
    for path in _portal_pages(integrador):
        page.goto(f"{service}{path}")
        problems += _check(page, path)
        if path in capturas:  # the README's and the guides' pictures, at both sizes
            sufixo = "" if tamanho == "notebook" else "-celular"
            refresh_docs_screenshot(f"{capturas[path]}{sufixo}", page.screenshot(full_page=tamanho == "notebook"))
    context.close()
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("tamanho", list(VIEWPORTS))
def test_every_public_and_docs_page_has_no_accessibility_violation(browser: Browser, service: str, tamanho: str):
    context = browser.new_context(viewport=VIEWPORTS[tamanho], bypass_csp=True)
    page = context.new_page()
    page.goto(f"{service}/docs")
    docs = sorted(
        {
            href
            for href in page.locator("a[href^='/docs']").evaluate_all("l => l.map(a => a.getAttribute('href'))")
            if "#" not in href
        }
    )
    assert len(docs) >= 8, docs
    problems: list[str] = []
    for path in PUBLIC_PAGES + docs:
        page.goto(f"{service}{path}")
        problems += _check(page, path)
    context.close()
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("tamanho", list(VIEWPORTS))
def test_every_navigation_item_is_reachable_and_the_current_one_is_in_view(
    browser: Browser, service: str, integrador: dict, tamanho: str
):
    context = browser.new_context(viewport=VIEWPORTS[tamanho], storage_state=integrador["state"])
    page = context.new_page()
    page.goto(f"{service}/chamadas")
    nav = page.get_by_role("navigation", name="Seções do portal")
    menu = page.get_by_role("button", name=re.compile("Menu"))
    if tamanho == "celular":
        # on a phone the sections hide behind a menu button that names the current one
        expect(menu).to_be_visible()
        expect(menu).to_contain_text("Chamadas")
        expect(menu).to_have_attribute("aria-expanded", "false")
        menu.click()
        expect(menu).to_have_attribute("aria-expanded", "true")
    else:
        expect(menu).to_be_hidden()
    expect(nav.locator("[aria-current=page]")).to_have_text("Chamadas")
    expect(nav.locator("[aria-current=page]")).to_be_in_viewport()
    links = nav.get_by_role("link")
    assert links.count() >= 14
    for index in range(links.count()):
        link = links.nth(index)
        link.focus()
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS[tamanho]["width"], (
            link.inner_text(),
            box,
        )
        assert link.evaluate("a => a.scrollWidth <= a.clientWidth + 1"), f"cut: {link.inner_text()}"
    # a long company or person name is shortened, whole on hover, and the header stays small
    header = page.locator("header").first
    assert header.bounding_box()["height"] <= (140 if tamanho == "celular" else 80)
    expect(page.locator(".org")).to_have_attribute("title", re.compile("Nome Bem Comprido"))
    context.close()


def test_focus_goes_to_the_new_key_and_to_the_first_refused_field(page: Page, service: str):
    sign_up(page, service, empresa="Integradora do Foco", nome="Fábio Foco")
    create_test_key(page)
    # the key shown once has the focus, selected for a copy
    expect(page.get_by_label("Chave de API")).to_be_focused()
    assert page.evaluate("document.activeElement.selectionEnd - document.activeElement.selectionStart") > 40
    # a form the server refuses opens with the focus on the first field it refused
    page.goto(f"{service}/avisos")
    page.get_by_label("URL do seu servidor").fill("http://sem-tls.exemplo.com/avisos")
    page.get_by_label("geracao.concluida").check()
    page.get_by_role("button", name="Registrar endereço").click()
    expect(page.get_by_label("URL do seu servidor")).to_be_focused()
    expect(page.get_by_label("URL do seu servidor")).to_have_attribute("aria-invalid", "true")


@pytest.mark.parametrize("tamanho", list(VIEWPORTS))
def test_names_and_urls_that_are_one_long_word_break_instead_of_widening_the_page(
    browser: Browser, service: str, receptor, tamanho: str
):
    """A company, an account and a notice URL as people type them, each with a word wider than a
    phone: the pages that show them whole (the contract's button, a product's way back, a
    delivery's and a secret's way back to the address) wrap them."""
    context = browser.new_context(viewport=VIEWPORTS["notebook"], bypass_csp=True)
    page = context.new_page()
    sign_up(page, service, empresa=f"Integradora {PALAVRA}", nome=f"Pessoa {PALAVRA}")
    key = create_test_key(page)
    conta = api(service, "POST", "/contas", key, {"codigoExterno": "loja-longa", "nome": f"Loja {PALAVRA}"}).data[
        "data"
    ]["id"]
    produto = api(service, "PUT", f"/contas/{conta}/produtos/{PRODUTO}", key, RICA)
    assert produto.status == 200, produto.data
    aviso = register_notice_address(page, service, f"{receptor.url}?token={'a' * 200}", receptor)
    page.goto(f"{service}{aviso}")
    page.get_by_role("button", name="Enviar evento de teste").click()
    expect(page).to_have_url(re.compile(f"{aviso}/entregas/"))
    page.set_viewport_size(VIEWPORTS[tamanho])
    problems = _check(page, "a delivery")
    for path in ["/contrato", f"/contas/{conta}/produtos/{PRODUTO}", f"{aviso}/segredo"]:
        page.goto(f"{service}{path}")
        problems += _check(page, path)
    context.close()
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("tamanho", list(VIEWPORTS))
def test_the_sellers_pages_have_no_accessibility_violation_and_never_clip(browser: Browser, service: str, tamanho: str):
    """The consent screen and "Apps conectados", with an app, an integrator and a store whose names
    are one long word each; the store's name in the header is shortened, whole on hover."""
    import secrets
    from urllib.parse import parse_qs, urlencode, urlsplit

    from aiohttp import web

    from e2e.conftest import app_in_thread
    from e2e.passos import SENHA, exchange_code, pkce

    async def retorno(request: web.Request) -> web.Response:
        return web.Response(text="<!doctype html><title>App</title>", content_type="text/html")

    retorno_app = web.Application()
    retorno_app.router.add_get("/retorno", retorno)
    with app_in_thread(retorno_app, tls=False) as port:
        redirect_uri = f"http://127.0.0.1:{port}/retorno"
        integradora = browser.new_context(viewport=VIEWPORTS["notebook"])
        page = integradora.new_page()
        sign_up(page, service, empresa=f"Integradora {PALAVRA}", nome="Rosa Ramos")
        page.goto(f"{service}/apps")
        page.get_by_label("Nome do app").fill(f"Conector {PALAVRA[:80]}")
        page.get_by_label(re.compile("Confidencial")).check()
        page.get_by_label("Endereços de retorno (redirect URIs)").fill(redirect_uri)
        page.get_by_label(re.compile("contas:ler")).check()
        page.get_by_role("button", name="Registrar app").click()
        client_id = page.get_by_label("client_id", exact=True).input_value()
        secret = page.get_by_label("client_secret", exact=True).input_value()
        integradora.close()

        context = browser.new_context(viewport=VIEWPORTS[tamanho], bypass_csp=True)
        loja = context.new_page()
        verifier, challenge = pkce()
        query = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "scope": "contas:ler",
            "state": "s",
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        loja.goto(f"{service}/oauth/autorizar?{urlencode(query)}")
        problems = _check(loja, "/vendedor/entrar")
        loja.get_by_role("link", name="Cadastrar a loja").click()
        loja.get_by_label("Nome da loja").fill(f"Loja {PALAVRA}")
        loja.get_by_label("E-mail").fill(f"loja-{secrets.token_hex(4)}@loja.test")
        loja.get_by_label("Senha").fill(SENHA)
        loja.get_by_role("button", name="Cadastrar").click()
        expect(loja.get_by_role("button", name="Autorizar")).to_be_visible()
        problems += _check(loja, "/oauth/autorizar")
        loja.get_by_role("button", name="Autorizar").click()
        expect(loja).to_have_url(re.compile(r"/retorno\?"))
        # the app is connected once its server exchanges the code
        code = parse_qs(urlsplit(loja.url).query)["code"][0]
        exchange_code(service, client_id, secret, code, redirect_uri, verifier)
        loja.goto(f"{service}/vendedor/apps")
        expect(loja.get_by_role("region", name=re.compile("Conector"))).to_be_visible()
        problems += _check(loja, "/vendedor/apps")
        expect(loja.locator("header .person")).to_have_attribute("title", f"Loja {PALAVRA}")
        context.close()
    assert problems == [], "\n".join(problems)
