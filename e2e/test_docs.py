"""The documentation in a real browser: the API reference renders the service's own OpenAPI
document with nothing fetched from another origin, code blocks copy with one click, the search
box finds a section, and every page leads back to the portal."""

from urllib.parse import urlsplit

from playwright.sync_api import Page, expect


def test_the_api_reference_renders_from_the_service_alone(page: Page, service: str, artifacts):
    origem = urlsplit(service).netloc
    pedidos: list[str] = []
    page.on("request", lambda request: pedidos.append(request.url))
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{service}/docs/referencia")
    referencia = page.locator("#referencia")
    # Redoc rendered the operations of the contract, from /v1/openapi.json
    expect(referencia.get_by_text("/galerias").first).to_be_visible(timeout=30_000)
    expect(referencia.get_by_text("/integracao/chamadas").first).to_be_attached()
    # and the notices of the document's webhooks section, one per event
    expect(referencia.get_by_text("perdeu a última autorização ativa", exact=False).first).to_be_attached()
    assert any(url.endswith("/v1/openapi.json") for url in pedidos), pedidos
    externos = [url for url in pedidos if urlsplit(url).scheme in ("http", "https") and urlsplit(url).netloc != origem]
    assert externos == []
    page.screenshot(path=str(artifacts / "docs-referencia.png"))


def test_code_blocks_copy_with_one_click(page: Page, service: str):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=service)
    page.goto(f"{service}/docs/avisos")
    bloco = page.locator(".docs-body .codigo").first
    esperado = bloco.locator("pre").inner_text().rstrip("\n")
    bloco.get_by_role("button", name="Copiar código 1").click()
    expect(bloco.get_by_role("button", name="Copiar código 1")).to_have_text("Copiado")
    expect(page.get_by_role("status")).to_have_text("Código copiado.")
    assert page.evaluate("navigator.clipboard.readText()") == esperado


def test_search_finds_a_section_and_every_page_leads_back_to_the_portal(page: Page, service: str):
    page.goto(f"{service}/docs")
    page.get_by_role("searchbox", name="Buscar na documentação").fill("assinatura do aviso")
    page.get_by_role("search").get_by_role("button", name="Buscar").click()
    expect(page.get_by_role("heading", name="Busca", level=1)).to_be_visible()
    primeiro = page.locator(".busca-resultados a").first
    expect(primeiro).to_contain_text("Avisos")
    primeiro.click()
    assert "/docs/avisos#" in page.url
    ancora = page.url.split("#", 1)[1]
    expect(page.locator(f"[id='{ancora}']")).to_be_in_viewport()
    page.get_by_role("link", name="Voltar ao portal").click()
    expect(page).to_have_url(f"{service}/entrar?proximo=/visao-geral")  # signed out: the sign-in first
