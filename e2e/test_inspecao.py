"""Inspecting what happened, in a real browser: the call log (jump to a request id, a row that
opens its call through a link named by its visible text, the key column, response headers,
copy as curl), each key's last use with a link to its calls, notice deliveries (a sample event
opened to its headers and body, filters by event, an unreachable server told apart), and
clearing the test data after the password."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from e2e.passos import SENHA, Navegador, api, create_test_key, sign_up

pytestmark = pytest.mark.slow

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Page, *rules: str) -> list[dict]:
    """axe-core's violations of the given rules on the page as it is now."""
    return page.evaluate(
        "async (rules) => (await axe.run(document, {runOnly: {type: 'rule', values: rules}})).violations"
        ".map(v => ({id: v.id, nodes: v.nodes.map(n => n.html)}))",
        list(rules),
    )


def test_the_call_log_keys_and_notices_open_to_what_happened(page: Page, service: str, artifacts, receptor):
    navegador = Navegador(page, service)
    # axe-core, injected by the browser itself (no inline script: the portal's CSP allows none)
    page.add_init_script(path=str(AXE))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=service)

    def shot(name: str) -> None:
        page.screenshot(path=str(artifacts / f"inspecao-{name}.png"), full_page=True)

    sign_up(page, service, empresa="Integradora Inspeção", nome="Ines Inspetora")
    key = create_test_key(page)
    identificador = key.rsplit("_", 1)[0]
    expect(page.get_by_role("cell", name="nunca usada")).to_be_visible()

    # calls from the integrator's server
    saldo = api(service, "GET", "/saldo", key)
    created = api(service, "POST", "/contas", key, {"codigoExterno": "loja-inspecao", "nome": "Loja Inspeção"})
    assert saldo.status == 200 and created.status == 201

    # the call log: the list shows the key, and the whole row opens the call
    page.goto(f"{service}/chamadas")
    calls = page.locator("#lista-chamadas")
    expect(calls).to_contain_text("POST /v1/contas", timeout=15_000)
    expect(calls.get_by_role("columnheader", name="Chave")).to_be_visible()
    row = calls.locator(f"#chamada-{created.request_id}")
    expect(row).to_contain_text(identificador)
    link = row.get_by_role("link", name="POST /v1/contas")
    expect(link).to_have_attribute("href", f"/chamadas/{created.request_id}")
    assert axe_violations(page, "label-content-name-mismatch") == []
    shot("chamadas")
    # a click on the time cell, far from the link's text, opens the call (the link covers the row)
    box = row.get_by_role("cell").first.bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + box["height"] / 2)
    expect(page).to_have_url(f"{service}/chamadas/{created.request_id}")

    # the detail: response headers, and the call again as curl without the key
    headers = page.locator("#cabecalhos-resposta")
    expect(headers).to_contain_text("X-RateLimit-Limit:")
    expect(headers).to_contain_text("X-RateLimit-Remaining:")
    curl = page.locator("#curl")
    expect(curl).to_contain_text("curl -X POST")
    expect(curl).to_contain_text("$VITRINE_CHAVE")
    expect(curl).to_contain_text('"codigoExterno":"loja-inspecao"')
    assert key.rsplit("_", 1)[1] not in page.content()
    page.get_by_role("button", name="Copiar como curl").click()
    expect(page.locator("#curl-status")).to_have_text("Copiado para a área de transferência.")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith("curl -X POST") and "$VITRINE_CHAVE" in copied
    shot("chamada")

    # the jump box: straight to a request id, or why not
    page.goto(f"{service}/chamadas")
    page.get_by_label("Ir para o request id").fill(saldo.request_id)
    page.get_by_role("button", name="Abrir chamada").click()
    expect(page).to_have_url(f"{service}/chamadas/{saldo.request_id}")
    expect(page.get_by_role("heading", level=1)).to_contain_text("GET /v1/saldo")
    page.goto(f"{service}/chamadas")
    page.get_by_label("Ir para o request id").fill("req_naoexiste")
    page.get_by_role("button", name="Abrir chamada").click()
    expect(page.locator("#erro-ir-request-id")).to_contain_text("Nenhuma chamada req_naoexiste")

    # keys: the last use, and a link to that key's calls
    nav = page.get_by_role("navigation", name="Seções do portal")
    nav.get_by_role("link", name="Chaves de API").click()
    keys_link = page.get_by_role("link", name=re.compile("Chamadas desta chave"))
    expect(keys_link).to_be_visible(timeout=15_000)
    expect(page.get_by_role("cell", name="nunca usada")).to_have_count(0)
    shot("chaves")
    keys_link.click()
    expect(page.get_by_label("Chave", exact=True)).to_have_value(identificador)
    expect(page.locator("#lista-chamadas tbody tr")).to_have_count(2)

    # notices: a sample event of a chosen type, opened to what was sent and received
    nav.get_by_role("link", name="Avisos").click()
    page.get_by_label("URL do seu servidor").fill(receptor.url)
    page.get_by_label("geracao.concluida").check()
    page.get_by_role("button", name="Registrar endereço").click()
    receptor.segredos.append(page.get_by_label("Segredo de assinatura").input_value())
    page.get_by_role("link", name="Ver o endereço").click()
    page.get_by_label("Evento", exact=True).first.select_option("produto.conferido")
    page.get_by_role("button", name="Enviar evento de teste").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("produto.conferido")
    expect(page.get_by_role("heading", name=re.compile("Tentativa 1"))).to_be_visible(timeout=15_000)
    expect(page.get_by_text("HTTP 204")).to_be_visible()
    expect(page.get_by_text(re.compile(r"webhook-signature: v1,"))).to_be_visible()
    expect(page.locator("#corpo-enviado")).to_contain_text('"conferencia"')
    assert receptor.recebidos[-1].valido is True and receptor.recebidos[-1].evento["tipo"] == "produto.conferido"
    shot("entrega")

    # the address's history filters by event
    page.get_by_role("link", name=receptor.url).first.click()
    history = page.get_by_role("region", name="Histórico de entregas")
    expect(history.get_by_role("link", name="produto.conferido")).to_be_visible()
    history.get_by_label("Evento").select_option("geracao.concluida")
    history.get_by_role("button", name="Filtrar").click()
    expect(page.get_by_text("Nenhuma entrega com estes filtros")).to_be_visible()
    history = page.get_by_role("region", name="Histórico de entregas")
    history.get_by_label("Evento").select_option("produto.conferido")
    history.get_by_label("Resultado").select_option("entregue")
    history.get_by_role("button", name="Filtrar").click()
    expect(history.get_by_role("link", name="produto.conferido")).to_be_visible()

    # a server Vitrine cannot reach is reported as such, never as a wrong answer
    nav.get_by_role("link", name="Avisos").click()
    page.get_by_label("URL do seu servidor").fill("https://localhost:1/avisos")
    page.get_by_label("geracao.concluida").check()
    page.get_by_role("button", name="Registrar endereço").click()
    page.get_by_role("button", name="Enviar entregas de teste").click()
    results = page.locator("#resultado-testes")
    expect(results).to_contain_text("Não alcançamos seu servidor", timeout=15_000)
    expect(results).to_contain_text("recusou a conexão")
    expect(results).not_to_contain_text("Algum teste não teve a resposta esperada")
    shot("nao-alcancado")

    assert navegador.foreign() == []
    # the one error: the unknown request id, answered 404 on purpose
    assert navegador.console_errors == [
        "Failed to load resource: the server responded with a status of 404 (Not Found)"
    ]


def test_clearing_test_data_asks_the_password_and_starts_the_steps_over(page: Page, service: str, artifacts):
    navegador = Navegador(page, service)
    sign_up(page, service, empresa="Integradora Recomeço", nome="Rita Recomeço")
    key = create_test_key(page)
    # a stray credit-spending POST without Idempotency-Key fails the IDEMPOTENCIA step
    assert api(service, "POST", "/contas", key, {"codigoExterno": "apagar", "nome": "Loja"}).status == 201
    assert api(service, "POST", "/galerias", key, {"produtoId": "prd_x", "quantidadeImagens": 3}).status == 400
    page.goto(f"{service}/integracao")
    step = page.locator("#etapa-IDEMPOTENCIA")
    for _ in range(30):
        if "falhou" in (step.get_attribute("class") or ""):
            break
        page.wait_for_timeout(500)
        page.reload()
    expect(step).to_have_class(re.compile("falhou"))

    page.get_by_role("link", name="Limpar dados de teste").click()
    expect(page.get_by_text("Produção não é tocada")).to_be_visible()
    page.get_by_role("button", name="Apagar os dados de teste").click()
    # the password first, then back to the confirmation
    expect(page.get_by_role("heading", name="Confirme sua senha")).to_be_visible()
    page.get_by_label("Senha").fill(SENHA)
    page.get_by_role("button", name="Confirmar").click()
    page.get_by_role("button", name="Apagar os dados de teste").click()
    expect(page.get_by_role("heading", name="Dados de teste apagados")).to_be_visible()
    expect(page.locator("#apagados")).to_contain_text("Contas")
    page.screenshot(path=str(artifacts / "inspecao-limpar.png"), full_page=True)

    page.get_by_role("link", name="Ver as etapas").click()
    expect(page.locator("#etapa-IDEMPOTENCIA")).to_have_class(re.compile("pendente"))
    expect(page.locator("#etapa-CHAVE_E_PRIMEIRA_CHAMADA")).to_have_class(re.compile("pendente"))
    nav = page.get_by_role("navigation", name="Seções do portal")
    nav.get_by_role("link", name="Contas e produtos").click()
    expect(page.locator("main")).not_to_contain_text("apagar")
    # the key still works, and a new first call is judged again
    assert api(service, "GET", "/saldo", key).status == 200
    page.goto(f"{service}/integracao")
    first = page.locator("#etapa-CHAVE_E_PRIMEIRA_CHAMADA")
    for _ in range(30):
        if "ok" in (first.get_attribute("class") or "").split():
            break
        page.wait_for_timeout(500)
        page.reload()
    expect(first).to_have_class(re.compile(r"\bok\b"))
    assert navegador.foreign() == []
    assert navegador.console_errors == []
