"""Buying a package in the portal: the form on the Extrato page, the checkout page (the payment
link of the built-in provider) with its buttons, CSRF, roles and environments."""

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from graphql_api.core import relogio
from graphql_api.core.ids import new_id
from graphql_api.creditos.models import Carteira, Lancamento
from graphql_api.recarga.models import Recarga
from tests.factories import Integrator
from tests.portal.conftest import integrador_id, join


async def comprar(portal, pacote: str = "pacote_500") -> str:
    """The "Comprar pacote" form; the path of the payment link it leads to."""
    response = await portal.submit("/extrato/comprar", {"pacote": pacote}, token_from="/extrato")
    assert response.status == 303, await response.text()
    link = urlsplit(response.headers["Location"])
    assert re.fullmatch(r"/checkout/rec_[0-9a-z]{26}", link.path), link
    return link.path


async def test_buy_a_package_in_test_and_pay_it_with_play_money(portal, owner):
    extrato = await portal.page("/extrato")
    assert "Comprar pacote" in extrato and "Pacote 2.000: 2.000 créditos por R$ 179,00" in extrato
    checkout = await comprar(portal, "pacote_2000")
    page = await portal.page(checkout)
    assert "2.000 créditos por R$ 179,00" in page and "Aguardando pagamento" in page
    assert "o pagamento é de brincadeira e nada é cobrado" in page
    assert f'action="{checkout}/pagar"' in page and f'action="{checkout}/recusar"' in page
    response = await portal.submit(f"{checkout}/pagar", {}, token_from=checkout)
    assert response.status == 303 and response.headers["Location"] == checkout
    paid = await portal.page(checkout)
    assert "Pagamento confirmado: 2.000 créditos entraram na carteira de teste" in paid
    assert "/pagar" not in paid  # nothing left to press
    extrato = await portal.page("/extrato")
    assert "3.000" in extrato and "Compra de pacote" in extrato and "Compra do Pacote 2.000: 2.000 créditos" in extrato
    recarga_id = checkout.rsplit("/", 1)[1]
    assert f'href="/checkout/{recarga_id}"' in extrato  # listed among the recent purchases
    # pressing again (a second tab) credits nothing more
    await portal.submit(f"{checkout}/pagar", {}, token_from=checkout)
    assert await Lancamento.filter(recarga_id=recarga_id).count() == 1
    carteira = await Carteira.get(integrador_id=await integrador_id(owner), ambiente="teste")
    assert (carteira.creditos_disponiveis, carteira.creditos_pacote) == (3000, 3000)


async def test_refuse_on_the_checkout_page(portal, owner):
    checkout = await comprar(portal)
    response = await portal.submit(f"{checkout}/recusar", {}, token_from=checkout)
    assert response.status == 303
    page = await portal.page(checkout)
    assert "Recusada" in page and "não será creditada" in page
    # paying afterwards is refused, on the same page
    late = await portal.submit(f"{checkout}/pagar", {}, token_from=checkout)
    assert late.status == 409 and "está recusada" in await late.text()
    assert await Lancamento.filter(recarga_id=checkout.rsplit("/", 1)[1]).count() == 0


async def test_the_buttons_need_the_csrf_token_and_a_session(client, portal, owner, new_portal):
    checkout = await comprar(portal)
    forged = await portal.client.post(f"{checkout}/pagar", data={}, allow_redirects=False)
    assert forged.status == 403 and "CSRF" in await forged.text()
    anonymous = await new_portal()
    assert (await anonymous.get(checkout)).status == 303  # to the sign-in page
    recarga = await Recarga.get(id=checkout.rsplit("/", 1)[1])
    assert recarga.situacao == "pendente"


async def test_another_integrators_person_cannot_see_nor_pay_it(portal, owner, new_portal):
    checkout = await comprar(portal)
    other = await new_portal()
    await other.signup()
    assert (await other.get(checkout)).status == 404
    assert (await other.submit(f"{checkout}/pagar", {}, token_from="/extrato")).status == 404
    assert (await Recarga.get(id=checkout.rsplit("/", 1)[1])).situacao == "pendente"
    assert (await other.get(f"/checkout/{new_id('rec_')}")).status == 404


async def test_a_developer_neither_buys_nor_pays(portal, owner, new_portal):
    checkout = await comprar(portal)
    developer, _ = await join(portal, new_portal, "Davi Dev", "desenvolvedor")
    assert "Comprar pacote" not in await developer.page("/extrato")
    assert (await developer.get(checkout)).status == 403
    assert (await developer.submit("/extrato/comprar", {"pacote": "pacote_500"}, token_from="/extrato")).status == 403
    finance, _ = await join(portal, new_portal, "Fernanda Finanças", "financeiro")
    assert (await finance.submit(f"{checkout}/pagar", {}, token_from=checkout)).status == 303


async def test_an_unknown_package_is_said_on_the_form(portal, owner):
    response = await portal.submit("/extrato/comprar", {"pacote": "pacote_gigante"}, token_from="/extrato")
    assert response.status == 422
    assert "Pacote desconhecido ou fora de venda" in await response.text()
    assert await Recarga.filter(integrador_id=await integrador_id(owner)).count() == 0


async def test_an_expired_purchase_cannot_be_paid(portal, owner, monkeypatch):
    checkout = await comprar(portal)
    real = datetime.now
    monkeypatch.setattr(relogio, "agora", lambda: real(UTC) + timedelta(minutes=31))
    page = await portal.page(checkout)
    assert "Expirada" in page and "/pagar" not in page
    late = await portal.submit(f"{checkout}/pagar", {}, token_from=checkout)
    assert late.status == 409 and "está expirada" in await late.text()
    assert await Lancamento.filter(recarga_id=checkout.rsplit("/", 1)[1]).count() == 0


async def test_production_purchases_are_not_paid_by_a_button(portal, owner, factory):
    await portal.switch("producao")
    refused = await portal.submit("/extrato/comprar", {"pacote": "pacote_500"}, token_from="/extrato")
    assert refused.status == 409 and "ainda não foi liberado" in await refused.text()  # no production access yet
    await factory.released(Integrator(await integrador_id(owner), ""))
    checkout = await comprar(portal)
    page = await portal.page(checkout)
    assert "Produção" in page and "PIX ou boleto" in page
    assert f'action="{checkout}/pagar"' not in page and f'action="{checkout}/recusar"' in page
    forced = await portal.submit(f"{checkout}/pagar", {}, token_from=checkout)
    assert forced.status == 403 and "Recargas de produção são pagas pelo meio indicado" in await forced.text()
    assert (await Recarga.get(id=checkout.rsplit("/", 1)[1])).situacao == "pendente"
    # giving it up works, from a session looking at the test environment too
    await portal.switch("teste")
    response = await portal.submit(f"{checkout}/recusar", {}, token_from=checkout)
    assert response.status == 303
    assert (await Recarga.get(id=checkout.rsplit("/", 1)[1])).situacao == "recusada"
