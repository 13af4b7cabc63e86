"""An integrator registers an OAuth app in a real browser: the Apps page, the form with its
scopes in plain Portuguese, the client_secret shown once with a copy button, the list with the
new app (docs/screenshots/apps.png), its page, and rotations that show a new secret once: one
keeping the previous secret for 3 days (the page then shows both), one ending it at once."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from e2e.passos import Navegador, refresh_docs_screenshot, sign_up
from graphql_api.oauth.escopos import DESCRICOES

pytestmark = pytest.mark.slow

SECRET = re.compile(r"cs_test_[A-Za-z0-9]{40}")


def test_register_an_oauth_app_and_see_its_secret_once(page: Page, service: str, artifacts):
    navegador = Navegador(page, service)

    def shot(name: str) -> Path:
        path = artifacts / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    sign_up(page, service, empresa="Integradora dos Apps", nome="Olga Oliveira")
    nav = page.get_by_role("navigation", name="Seções do portal")
    nav.get_by_role("link", name="Apps").click()
    expect(page.get_by_role("heading", name=re.compile("Apps OAuth"))).to_be_visible()
    expect(page.get_by_text("Nenhum app OAuth de teste ainda")).to_be_visible()
    for descricao in DESCRICOES.values():
        expect(page.get_by_text(descricao)).to_be_visible()

    # a refused address is explained beside the field, and what was typed stays
    page.get_by_label("Nome do app").fill("Conector da Loja Olga")
    page.get_by_label(re.compile("Confidencial")).check()
    page.get_by_label("Endereços de retorno (redirect URIs)").fill("http://loja-olga.exemplo.com/retorno")
    page.get_by_label(re.compile("produtos:ler")).check()
    page.get_by_role("button", name="Registrar app").click()
    expect(page.locator("#erro-redirectUris")).to_contain_text(
        "Endereço 1 (http://loja-olga.exemplo.com/retorno): precisa usar https://"
    )
    expect(page.get_by_label("Nome do app")).to_have_value("Conector da Loja Olga")

    page.get_by_label("Endereços de retorno (redirect URIs)").fill(
        "https://loja-olga.exemplo.com/oauth/retorno\nhttp://localhost:8080/retorno"
    )
    page.get_by_label(re.compile("geracoes:criar")).check()
    page.get_by_role("button", name="Registrar app").click()

    # the credentials, once: client_id and client_secret with copy buttons and a warning
    expect(page.get_by_role("heading", name=re.compile("copie o segredo agora"))).to_be_visible()
    client_id = page.get_by_label("client_id", exact=True).input_value()
    secret = page.get_by_label("client_secret", exact=True).input_value()
    assert re.fullmatch(r"app_[0-9a-z]{26}", client_id) and SECRET.fullmatch(secret)
    expect(page.get_by_text(re.compile("Esta é a única vez que o client_secret aparece"))).to_be_visible()
    page.get_by_role("button", name="Copiar").nth(1).click()
    expect(page.locator("#client-secret-status")).not_to_be_empty()
    shot("app-credenciais")

    # the list of the environment's apps, one app in it: the documentation's screenshot
    nav.get_by_role("link", name="Apps").click()
    row = page.get_by_role("row", name=re.compile("Conector da Loja Olga"))
    expect(row).to_contain_text(client_id)
    expect(row).to_contain_text("ativo")
    assert secret not in page.content()
    refresh_docs_screenshot("apps", shot("apps").read_bytes())

    # the app's page: the secret only by its last characters; a rotation shows a new one once
    page.get_by_role("link", name="Conector da Loja Olga").click()
    expect(page.get_by_text(f"cs_test_…{secret[-4:]}")).to_be_visible()
    expect(page.get_by_label("Endereços de retorno (redirect URIs)")).to_have_value(
        "https://loja-olga.exemplo.com/oauth/retorno\nhttp://localhost:8080/retorno"
    )
    shot("app")
    # the rotation asks how long the current secret keeps working: at once by default, 3 days here
    page.get_by_role("link", name="Rotacionar segredo").click()
    janela = page.get_by_label("Por quanto tempo o segredo atual continua valendo")
    expect(janela).to_have_value("0")
    janela.select_option(label="3 dias")
    page.get_by_role("button", name="Gerar novo segredo").click()
    novo = page.get_by_label("client_secret", exact=True).input_value()
    assert SECRET.fullmatch(novo) and novo != secret
    expect(page.get_by_role("note")).to_contain_text(f"O segredo anterior (…{secret[-4:]}) continua valendo até")
    # the app's page: two secrets work, until the window's end
    page.get_by_role("link", name="Ver o app").click()
    dois = page.get_by_role("note").filter(has_text="Dois segredos valem até")
    expect(dois).to_contain_text(f"cs_test_…{secret[-4:]}")
    expect(page.get_by_text(f"cs_test_…{novo[-4:]}")).to_be_visible()
    shot("app-dois-segredos")
    # rotating again at once ends both previous ones
    page.get_by_role("link", name="Rotacionar segredo").click()
    page.get_by_role("button", name="Gerar novo segredo").click()
    expect(page.get_by_text("O segredo anterior deixou de valer agora")).to_be_visible()

    # disabling asks first and is for good
    page.get_by_role("link", name="Ver o app").click()
    page.get_by_role("link", name="Desativar").click()
    expect(page.get_by_text("Isso não pode ser desfeito")).to_be_visible()
    page.get_by_role("button", name="Desativar app").click()
    expect(page.get_by_role("status")).to_contain_text("App desativado")
    expect(page.get_by_role("row", name=re.compile("Conector da Loja Olga"))).to_contain_text("desativado")

    assert navegador.requested and not navegador.foreign(), navegador.foreign()
    # the refused form answered 422 on purpose; Chromium logs any 4xx page as a console error
    refused = "Failed to load resource: the server responded with a status of 422 (Unprocessable Content)"
    assert [m for m in navegador.console_errors if not m.startswith(refused[:60])] == [], navegador.console_errors
