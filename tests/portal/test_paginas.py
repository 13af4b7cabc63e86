"""The pages, through real HTTP: keys, call log, accounts and products, overview."""

import re
from datetime import datetime, timedelta

from tests.factories import auth, eventually
from tests.portal.conftest import create_key as _create_key


async def test_a_key_is_shown_once_listed_by_identifier_and_revoked_after_confirmation(client, portal, owner):
    token = await _create_key(portal, "homologação")
    identificador = token.rsplit("_", 1)[0]
    # the key works against the API
    assert (await client.get("/v1/saldo", headers=auth(token))).status == 200
    # the list shows the identifier, never the secret
    page = await portal.page("/chaves")
    assert identificador in page and "homologação" in page and token not in page
    # revoking asks first, then takes effect at once
    confirm = await portal.page(f"/chaves/{identificador}/revogar")
    assert "Revogar a chave" in confirm and "não pode ser desfeita" in confirm
    response = await portal.submit(f"/chaves/{identificador}/revogar", {}, token_from="/chaves")
    assert response.status == 303 and response.headers["Location"] == "/chaves?aviso=chave_revogada"
    assert "revogada em" in await portal.page("/chaves")
    assert (await client.get("/v1/saldo", headers=auth(token))).status == 401
    # a revoked key has no confirmation page any more
    assert (await portal.get(f"/chaves/{identificador}/revogar")).status == 404


async def test_keys_page_in_production_explains_why_no_live_key_yet(portal, owner):
    await portal.switch("producao")
    page = await portal.page("/chaves")
    assert "Ainda não é possível criar chaves de produção" in page
    assert "disabled" in page and "Nenhuma chave de produção" in page


async def test_keys_of_one_integrator_are_invisible_to_another(portal, new_portal, owner):
    token = await _create_key(portal)
    identificador = token.rsplit("_", 1)[0]
    other = await new_portal()
    await other.signup()
    assert identificador not in await other.page("/chaves")
    response = await other.submit(f"/chaves/{identificador}/revogar", {}, token_from="/chaves")
    assert response.status == 404
    assert (await portal.client.get("/v1/saldo", headers=auth(token))).status == 200


async def test_call_log_lists_filters_and_details_calls_with_masked_bodies(client, portal, owner):
    token = await _create_key(portal)
    created = await client.post(
        "/v1/contas",
        headers=auth(token),
        json={"codigoExterno": "loja-portal", "nome": "Loja da Joana joana.silva@loja.com.br (11) 98765-4321"},
    )
    assert created.status == 201
    refused = await client.post("/v1/contas", headers=auth(token), json={"nome": ""})
    assert refused.status == 422
    request_id = refused.headers["X-Request-Id"]

    async def listed():
        page = await portal.page("/chamadas")
        assert request_id in page and "/v1/contas" in page
        assert '<option value="/contas">' in page  # the endpoints the log holds, learned from it
        return page

    page = await eventually(listed)
    assert 'hx-get="/chamadas/lista"' in page and 'hx-trigger="every 3s"' in page
    # the polled fragment is the list alone, filtered the same way
    fragment = await portal.page("/chamadas/lista?status=4xx")
    assert fragment.startswith("<section") and request_id in fragment and "201" not in fragment
    # every filter of the API is on the form
    for name in ("de", "ate", "status", "metodo", "endpoint", "codigoErro", "contaId", "chave", "ambiente"):
        assert f'name="{name}"' in page
    # the endpoint filter suggests exactly the templates this log holds
    suggested = page.split('<datalist id="endpoints">')[1].split("</datalist>")[0]
    assert suggested == '<option value="/contas"></option>'
    # a bad filter is reported beside its field
    response = await portal.get("/chamadas?status=abc")
    assert response.status == 422
    refused_filter = await response.text()
    assert 'id="erro-status"' in refused_filter
    assert "Use um código exato (422) ou uma classe (2xx, 4xx, 5xx)." in refused_filter  # what is accepted
    assert "Tipo inválido" not in refused_filter
    # detail of the refused call: cause, fix, documentation, masked request
    detail = await portal.page(f"/chamadas/{request_id}")
    assert "VALIDATION_FAILED" in detail and "Como corrigir" in detail and "/docs/erros#VALIDATION_FAILED" in detail
    # each refused field, as the API answered it
    campos = detail.split('<ul class="campos-recusados">')[1].split("</ul>")[0]
    assert "<code>codigoExterno</code>: Campo obrigatório." in campos and "<code>nome</code>" in campos
    assert "Bearer " in detail and token not in detail and "_****" in detail
    # detail of the created account: personal data masked in both bodies
    created_detail = await portal.page(f"/chamadas/{created.headers['X-Request-Id']}")
    assert "joana.silva@" not in created_detail and "98765-4321" not in created_detail
    assert "j***@loja.com.br" in created_detail


async def test_accounts_and_their_products(client, portal, owner):
    token = await _create_key(portal)
    assert "Nenhuma conta neste ambiente" in await portal.page("/contas")
    conta = (
        await (
            await client.post("/v1/contas", headers=auth(token), json={"codigoExterno": "c-1", "nome": "Loja Um"})
        ).json()
    )["data"]
    response = await client.put(
        f"/v1/contas/{conta['id']}/produtos/SKU-9", headers=auth(token), json={"nome": "Cafeteira"}
    )
    assert response.status == 200
    listing = await portal.page("/contas")
    assert "Loja Um" in listing and f"/contas/{conta['id']}" in listing
    page = await portal.page(f"/contas/{conta['id']}")
    situacao = (await (await client.get(f"/v1/contas/{conta['id']}/produtos/SKU-9", headers=auth(token))).json())[
        "data"
    ]["situacao"]
    assert "SKU-9" in page and "Cafeteira" in page
    assert situacao in page or "conferindo" in page  # the check may finish between the two reads
    assert (await portal.get("/contas/cta_naoexiste")).status == 404


async def test_overview_shows_balance_errors_and_latest_calls(client, portal, owner):
    page = await portal.page("/visao-geral")
    assert "1.000" in page and "créditos disponíveis" in page  # the free test credits
    assert "Nenhum erro nos últimos 7 dias" in page and "Nenhuma chamada à API" in page
    token = await _create_key(portal)
    await client.get("/v1/contas/cta_inexistente", headers=auth(token))

    async def shown():
        page = await portal.page("/visao-geral")
        assert "NOT_FOUND" in page and "/v1/contas/cta_inexistente" in page
        return page

    page = await eventually(shown)
    await portal.switch("producao")
    production = await portal.page("/visao-geral")
    assert "Você está vendo <strong>produção</strong>" in production and "NOT_FOUND" not in production


async def test_times_follow_the_browsers_zone_and_name_it(client, portal, owner):
    token = await _create_key(portal)
    call = await client.get("/v1/saldo", headers=auth(token))
    request_id = call.headers["X-Request-Id"]
    await eventually(lambda: _listed(portal, request_id))
    for zona, nome in (("", "São Paulo, UTC−03:00"), ("Asia/Tokyo", "Tokyo, UTC+09:00")):
        client.session.cookie_jar.update_cookies({"fuso": zona})
        detail = await portal.page(f"/chamadas/{request_id}")
        assert f"Horários de {nome}." in detail
        # the UTC instant on hover, the local time shown
        utc, local = re.search(r'<time datetime="([^"]+)" title="\1 \(UTC\)">([^<]+)</time>', detail).groups()
        shown = datetime.strptime(local, "%d/%m/%Y %H:%M:%S")
        instant = datetime.strptime(utc, "%Y-%m-%dT%H:%M:%SZ")
        assert shown - instant == timedelta(hours=9 if zona else -3)


async def _listed(portal, request_id: str) -> None:
    assert request_id in await portal.page("/chamadas")


async def test_an_unknown_address_answers_a_page_in_the_layout_and_a_known_one_keeps_its_405(client, portal, owner):
    response = await portal.get("/nada-por-aqui")
    assert response.status == 404
    page = await response.text()
    assert '<html lang="pt-BR">' in page and "<title>Página não encontrada · Vitrine</title>" in page
    assert (
        "<h1>Página não encontrada</h1>" in page and 'aria-label="Seções do portal"' in page
    )  # signed in: the portal's layout
    assert "/nada-por-aqui" in page
    # a seller's address gets the sellers' layout, a visitor the sign-in one
    seller = await client.get("/vendedor/nada", allow_redirects=False)
    assert seller.status == 404 and "para lojas" in await seller.text()
    # methods another route serves are still refused with 405 and Allow, not hidden by the 404
    refused = await client.post("/visao-geral", allow_redirects=False)
    assert refused.status == 405 and "GET" in refused.headers["Allow"]
    assert (await client.post("/nada-por-aqui", allow_redirects=False)).status == 404
    docs = await client.get("/docs/nada-por-aqui")
    assert docs.status == 404 and "Página não encontrada" in await docs.text()
