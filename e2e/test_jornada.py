"""The integrator's first journey in a real browser: sign up, create a test key, call the API
with it, watch the call arrive in the portal's call log with its bodies masked, register a notice
address served by the test, send the test deliveries and watch their three verdicts, see the
steps those calls turned ok, accept the contract and refill the test credits."""

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.passos import SENHA, Navegador, api, create_test_key, sign_up

pytestmark = pytest.mark.slow


def test_sign_up_create_a_key_use_it_and_see_the_call(page: Page, service: str, artifacts, receptor):
    navegador = Navegador(page, service)

    def shot(name: str) -> None:
        page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)

    # sign up: company, alert contact, the first person
    page.goto(f"{service}/cadastro")
    shot("cadastro")
    sign_up(page, service, empresa="Integradora Ponta a Ponta", nome="Paula Pontes")
    expect(page.get_by_role("status")).to_contain_text("Conta criada")
    expect(page.locator(".stat .big").first).to_contain_text("1.000")
    shot("visao-geral-inicio")

    # create a test key; it is shown once, with a copy button
    page.get_by_role("navigation", name="Seções do portal").get_by_role("link", name="Chaves de API").click()
    expect(page.get_by_text("Nenhuma chave de teste ainda")).to_be_visible()
    key = create_test_key(page)
    page.get_by_role("button", name="Copiar").click()
    expect(page.locator("#nova-chave-status")).not_to_be_empty()
    expect(page.get_by_role("cell", name=key.rsplit("_", 1)[0] + "_…")).to_be_visible()
    shot("chaves")

    # the call log is open before the calls: the list must update by itself
    page.goto(f"{service}/chamadas")
    expect(page.get_by_text("Nenhuma chamada neste ambiente ainda")).to_be_visible()
    assert api(service, "GET", "/saldo", key).status == 200
    refused = api(
        service,
        "POST",
        "/contas",
        key,
        {
            "codigoExterno": "loja-e2e",
            "nome": "Loja da Joana",
            "contato": "joana.silva@loja.com.br, (11) 98765-4321",
        },
    )
    assert refused.status == 422  # an unknown field: the error gets cause and fix in the log
    request_id = refused.request_id
    created = api(service, "POST", "/contas", key, {"codigoExterno": "loja-e2e", "nome": "Loja da Joana"})
    assert created.status == 201
    created_id = created.request_id
    calls = page.locator("#lista-chamadas")
    expect(calls).to_contain_text("POST /v1/contas", timeout=15_000)
    expect(calls).to_contain_text("GET /v1/saldo")
    expect(calls.locator("tbody tr")).to_have_count(3)
    shot("chamadas")

    # the refused call's detail: masked bodies, cause, fix and the documentation link
    calls.locator(f"#chamada-{request_id}").get_by_role("link").click()
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

    # notices: register the test's HTTPS receiver; the secret appears once, with a copy button
    nav = page.get_by_role("navigation", name="Seções do portal")
    nav.get_by_role("link", name="Avisos").click()
    expect(page.get_by_text("Nenhum endereço de avisos em teste ainda")).to_be_visible()
    page.get_by_label("URL do seu servidor").fill(receptor.url)
    page.get_by_label("geracao.concluida").check()
    page.get_by_role("button", name="Registrar endereço").click()
    segredo = page.get_by_label("Segredo de assinatura").input_value()
    assert segredo.startswith("whsec_")
    page.get_by_role("button", name="Copiar").click()
    expect(page.locator("#novo-segredo-status")).not_to_be_empty()
    receptor.segredos.append(segredo)  # the integrator configures its server with it
    shot("avisos")

    # the three test deliveries, watched on the address's page until their verdicts arrive
    receptor.espera = 1.0  # a receiver that takes a moment: the page shows the wait, then the results
    page.get_by_role("button", name="Enviar entregas de teste").click()
    expect(page).to_have_url(re.compile(r"/avisos/avs_\w+\?aviso=testes_enviados"))
    resultados = page.locator("#resultado-testes")
    expect(resultados.get_by_text("passou")).to_have_count(3, timeout=20_000)
    expect(resultados).to_contain_text("Os três testes passaram")
    for caso in ("Entrega válida", "Assinatura errada", "Horário de 10 minutos atrás"):
        expect(resultados.get_by_role("row", name=re.compile(caso))).to_contain_text("passou")
    assert sorted(r.valido for r in receptor.recebidos) == [False, False, True]
    assert segredo not in page.content()
    shot("aviso")

    # the steps those calls proved, with evidence; production is refused with what is missing
    nav.get_by_role("link", name="Integração").click()
    for codigo in ("CHAVE_E_PRIMEIRA_CHAMADA", "SUBCONTA_CRIADA", "AVISOS_ASSINATURA"):
        expect(page.locator(f"#etapa-{codigo} .badge")).to_have_text("ok")
    expect(page.locator("#etapa-GALERIA_TESTE .badge")).to_have_text("pendente")
    # asking is not offered while steps are missing, and the page says why, beside the button
    pedir = page.get_by_role("button", name="Pedir liberação de produção")
    expect(pedir).to_be_disabled()
    expect(pedir).to_have_accessible_description(re.compile("faltam 5 etapas"))
    shot("integracao")
    nav.get_by_role("link", name="Visão geral").click()
    expect(page.get_by_text("3 de 8 etapas ok")).to_be_visible()
    shot("visao-geral")

    # the contract: an owner accepts it after typing the password again
    nav.get_by_role("link", name="Contrato").click()
    page.get_by_role("button", name=re.compile("Aceitar a versão")).click()
    expect(page.get_by_role("heading", name="Confirme sua senha")).to_be_visible()
    page.get_by_label("Senha").fill(SENHA)
    page.get_by_role("button", name="Confirmar").click()
    expect(page).to_have_url(re.compile(r"/contrato\?aviso=reautenticado"))
    page.get_by_role("button", name=re.compile("Aceitar a versão")).click()
    expect(page.get_by_text(re.compile(r"Aceita em .* por Paula Pontes"))).to_be_visible()
    shot("contrato")

    # the statement, and a free refill of test credits
    nav.get_by_role("link", name="Extrato").click()
    expect(page.get_by_role("cell", name=re.compile("Créditos de teste iniciais"))).to_be_visible()
    page.get_by_role("button", name="Recarregar créditos de teste").click()
    expect(page.get_by_role("status")).to_contain_text("Créditos de teste recarregados")
    expect(page.locator(".stat .big")).to_contain_text("2.000")
    shot("extrato")

    for path, name in (("/emails", "emails"), ("/equipe", "equipe")):
        page.goto(f"{service}{path}")
        shot(name)

    # on a phone: nothing wider than the screen
    page.set_viewport_size({"width": 390, "height": 844})

    def phone_shot(name: str) -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
        shot(name)

    page.goto(f"{service}/visao-geral")
    expect(page.get_by_role("heading", name=re.compile("Visão geral"))).to_be_visible()
    phone_shot("visao-geral-celular")
    page.goto(f"{service}/chamadas/{created_id}")
    phone_shot("chamada-celular")
    page.goto(f"{service}/integracao")
    phone_shot("integracao-celular")
    page.get_by_role("button", name=re.compile("Menu")).click()  # on a phone the sections fold behind it
    nav.get_by_role("link", name="Avisos").click()
    page.get_by_role("link", name=receptor.url).click()
    expect(page.locator("#resultado-testes")).to_contain_text("passou")
    phone_shot("aviso-celular")
    page.goto(f"{service}/extrato")
    phone_shot("extrato-celular")

    # sign out ends the session
    page.get_by_role("button", name="Sair").click()
    expect(page).to_have_url(re.compile(r"/entrar\?aviso=saiu"))
    page.goto(f"{service}/chaves")
    expect(page).to_have_url(re.compile(r"/entrar\?proximo="))

    # nothing came from anywhere but the service itself, and nothing broke in the page
    assert navegador.requested and not navegador.foreign(), navegador.foreign()
    assert any(url.endswith("/static/vendor/htmx.min.js") for url in navegador.requested)
    # Production is not asked for while steps are missing (the button is disabled): no page of the
    # journey answered an error, so nothing appears in the console.
    assert navegador.console_errors == [], navegador.console_errors
