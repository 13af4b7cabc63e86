"""The integrator's person buys a single package in teste through the checkout page, in a real
browser: the "Comprar pacote" form on the Extrato page, the checkout with its price and the
"Pagar" button (play money), then the new balance and the ledger entry; the integrator's server
sees the purchase paid through the API."""

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.passos import Navegador, api, create_test_key, sign_up

pytestmark = pytest.mark.slow


def test_buy_a_package_in_test_through_the_checkout_page(page: Page, service: str, artifacts):
    navegador = Navegador(page, service)

    def shot(name: str) -> None:
        page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)

    sign_up(page, service, empresa="Integradora das Compras", nome="Clara Compras")
    key = create_test_key(page)
    nav = page.get_by_role("navigation", name="Seções do portal")
    nav.get_by_role("link", name="Extrato").click()
    expect(page.locator(".stat .big").first).to_contain_text("1.000")

    # choose a package and buy it: on to its payment link, the checkout page
    page.get_by_label("Pacote", exact=True).select_option("pacote_2000")
    page.get_by_role("button", name="Comprar pacote").click()
    expect(page).to_have_url(re.compile(r"/checkout/rec_[0-9a-z]{26}$"))
    recarga_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_role("heading", name="2.000 créditos por R$ 179,00")).to_be_visible()
    expect(page.get_by_text("Aguardando pagamento")).to_be_visible()
    expect(page.get_by_text("o pagamento é de brincadeira")).to_be_visible()
    shot("checkout")
    pendente = api(service, "GET", f"/recargas/{recarga_id}", key)
    assert pendente.status == 200 and pendente.data["data"]["situacao"] == "pendente"

    # pay with play money
    page.get_by_role("button", name="Pagar").click()
    expect(page.get_by_role("status")).to_contain_text(
        "Pagamento confirmado: 2.000 créditos entraram na carteira de teste"
    )
    expect(page.get_by_role("button", name="Pagar")).to_have_count(0)
    shot("checkout-paga")

    # the credits and the ledger entry
    page.get_by_role("link", name="Ver o extrato").click()
    expect(page.locator(".stat .big").first).to_contain_text("3.000")
    entry = page.get_by_role("row").filter(has_text="Compra de pacote")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text(f"Compra do Pacote 2.000: 2.000 créditos (recarga {recarga_id}).")
    expect(entry).to_contain_text("+2.000")
    expect(page.get_by_role("link", name=recarga_id)).to_be_visible()
    shot("extrato-compra")

    # the integrator's server sees it paid, and the wallet with it
    paga = api(service, "GET", f"/recargas/{recarga_id}", key)
    assert paga.data["data"]["situacao"] == "paga" and paga.data["data"]["pagaEm"]
    assert api(service, "GET", "/saldo", key).data["data"]["creditosDisponiveis"] == 3000

    assert navegador.foreign() == []
    assert navegador.console_errors == []
