"""The integrator's first journey in a real browser: sign up, create a test key, call the API
with it, and watch the call arrive in the portal's call log with its bodies masked."""

import json
import re
import secrets
import urllib.request
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow


def _api(base: str, method: str, path: str, key: str, body: dict | None = None) -> tuple[int, str]:
    request = urllib.request.Request(
        f"{base}/v1{path}", method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers["X-Request-Id"]
    except urllib.error.HTTPError as error:
        return error.code, error.headers["X-Request-Id"]


def test_sign_up_create_a_key_use_it_and_see_the_call(page: Page, service: str, artifacts):
    origin = urlsplit(service)
    requested, console_errors = [], []
    page.on("request", lambda request: requested.append(request.url))
    page.on("console", lambda message: console_errors.append(message.text) if message.type == "error" else None)

    def shot(name: str) -> None:
        page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)

    # sign up: company, alert contact, the first person
    page.goto(f"{service}/cadastro")
    shot("cadastro")
    email = f"e2e-{secrets.token_hex(4)}@integradora.test"
    page.get_by_label("Nome da empresa").fill("Integradora Ponta a Ponta")
    page.get_by_label("E-mail para alertas").fill("alertas@integradora.test")
    page.get_by_label("Seu nome").fill("Paula Pontes")
    page.get_by_label("Seu e-mail").fill(email)
    page.get_by_label("Senha").fill("uma senha longa de teste")
    page.get_by_role("button", name="Criar conta").click()
    expect(page).to_have_url(re.compile(r"/visao-geral"))
    expect(page.get_by_role("status")).to_contain_text("Conta criada")
    expect(page.locator(".stat .big").first).to_contain_text("1.000")
    shot("visao-geral")

    # create a test key; it is shown once, with a copy button
    page.get_by_role("navigation", name="Seções do portal").get_by_role("link", name="Chaves de API").click()
    expect(page.get_by_text("Nenhuma chave de teste ainda")).to_be_visible()
    page.get_by_label("Nome para reconhecer a chave").fill("servidor e2e")
    page.get_by_role("button", name="Criar chave").click()
    key = page.get_by_label("Chave de API").input_value()
    assert re.fullmatch(r"sk_test_[A-Za-z0-9]{12}_[A-Za-z0-9]{40}", key)
    page.get_by_role("button", name="Copiar").click()
    expect(page.locator("#nova-chave-status")).not_to_be_empty()
    expect(page.get_by_role("cell", name=key.rsplit("_", 1)[0] + "_…")).to_be_visible()
    shot("chaves")

    # the call log is open before the calls: the list must update by itself
    page.goto(f"{service}/chamadas")
    expect(page.get_by_text("Nenhuma chamada neste ambiente ainda")).to_be_visible()
    status, _ = _api(service, "GET", "/saldo", key)
    assert status == 200
    status, request_id = _api(service, "POST", "/contas", key, {
        "codigoExterno": "loja-e2e", "nome": "Loja da Joana", "contato": "joana.silva@loja.com.br, (11) 98765-4321",
    })
    assert status == 422  # an unknown field: the error gets cause and fix in the log
    status, created_id = _api(service, "POST", "/contas", key, {"codigoExterno": "loja-e2e", "nome": "Loja da Joana"})
    assert status == 201
    calls = page.locator("#lista-chamadas")
    expect(calls).to_contain_text("POST /v1/contas", timeout=15_000)
    expect(calls).to_contain_text("GET /v1/saldo")
    expect(calls.locator("tbody tr")).to_have_count(3)
    shot("chamadas")

    # the refused call's detail: masked bodies, cause, fix and the documentation link
    page.get_by_role("link", name=f"Detalhe da chamada {request_id}").click()
    expect(page.get_by_role("heading", name=re.compile("VALIDATION_FAILED"))).to_be_visible()
    sent = page.get_by_role("region", name="Corpo enviado")
    expect(sent).to_contain_text("j***@loja.com.br")
    expect(sent).not_to_contain_text("joana.silva@")
    expect(sent).not_to_contain_text("98765-4321")
    expect(page.get_by_text("Authorization: Bearer " + key.rsplit("_", 1)[0] + "_****")).to_be_visible()
    assert key not in page.content()
    expect(page.get_by_role("link", name="Documentação de VALIDATION_FAILED")).to_have_attribute(
        "href", f"{service}/docs/erros#VALIDATION_FAILED"
    )
    shot("chamada")

    # the account created through the API
    page.get_by_role("navigation", name="Seções do portal").get_by_role("link", name="Contas e produtos").click()
    page.get_by_role("link", name="Loja da Joana").click()
    expect(page.get_by_text("Nenhum produto nesta conta")).to_be_visible()
    shot("conta")
    for path, name in (("/emails", "emails"), ("/equipe", "equipe")):
        page.goto(f"{service}{path}")
        shot(name)

    # on a phone
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{service}/visao-geral")
    expect(page.get_by_role("heading", name=re.compile("Visão geral"))).to_be_visible()
    shot("visao-geral-celular")
    page.goto(f"{service}/chamadas/{created_id}")
    shot("chamada-celular")

    # sign out ends the session
    page.get_by_role("button", name="Sair").click()
    expect(page).to_have_url(re.compile(r"/entrar\?aviso=saiu"))
    page.goto(f"{service}/chaves")
    expect(page).to_have_url(re.compile(r"/entrar\?proximo="))

    # nothing came from anywhere but the service itself, and nothing broke in the page
    foreign = [url for url in requested if urlsplit(url)[:2] != origin[:2]]
    assert requested and not foreign, foreign
    assert any(url.endswith("/static/vendor/htmx.min.js") for url in requested)
    assert not console_errors, console_errors
