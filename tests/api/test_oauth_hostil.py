"""An outside attacker (or a careless integrator) against the OAuth server: malformed requests to
the token endpoint must still be RFC 6749 errors (never a 500), and what an integrator's state or a
revocation changes must reach oat_ tokens at once."""

import base64

import pytest

from graphql_api.produto.models import Produto
from tests.api.test_auth import assert_error
from tests.api.test_integracao import graphql, staff_token
from tests.api.test_oauth_token import oauth_error
from tests.factories import auth

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
JSON = {"Content-Type": "application/json"}


async def _public(oauth, integrator):
    return await oauth.app(integrator, tipo="publico")


@pytest.mark.parametrize(
    ("name", "headers", "body"),
    [
        ("form bytes that are not UTF-8", FORM, b"grant_type=refresh_token&refresh_token=ort_\xff&client_id={cid}"),
        (
            "a charset nobody knows",
            {"Content-Type": f"{FORM['Content-Type']}; charset=nada-8"},
            b"grant_type=refresh_token&client_id={cid}",
        ),
        ("a body gzip says it is but is not", FORM | {"Content-Encoding": "gzip"}, b"grant_type=refresh_token"),
        ("JSON nested past any stack", JSON, b"[" * 100_000 + b"]" * 100_000),
        (
            "JSON with a lone surrogate",
            JSON,
            b'{"grant_type": "refresh_token", "refresh_token": "ort_\\ud800", "client_id": "{cid}"}',
        ),
        ("a repeated field whose name is not ASCII", FORM, b"%C3%A7=1&%C3%A7=2&client_id={cid}"),
        ("a repeated field named with a quote", FORM, b"%22=1&%22=2&client_id={cid}"),
    ],
)
async def test_malformed_token_requests_are_oauth_errors_never_500(client, oauth, integrator, name, headers, body):
    app = await _public(oauth, integrator)
    response = await client.post("/oauth/token", data=body.replace(b"{cid}", app.client_id.encode()), headers=headers)
    await oauth_error(response, 400, "invalid_request")


async def test_a_body_over_one_megabyte_is_413_invalid_request(client, oauth, integrator):
    app = await _public(oauth, integrator)
    body = f"grant_type=refresh_token&client_id={app.client_id}&refresh_token=" + "a" * (1024 * 1024)
    response = await client.post("/oauth/token", data=body.encode(), headers=FORM)
    await oauth_error(response, 413, "invalid_request")


async def test_the_revocation_endpoint_reads_its_body_the_same_way(client, oauth, integrator):
    app = await _public(oauth, integrator)
    body = b'{"token": "ort_\\ud800", "client_id": "' + app.client_id.encode() + b'"}'
    await oauth_error(await client.post("/oauth/revogar", data=body, headers=JSON), 400, "invalid_request")


@pytest.mark.parametrize(
    "header",
    [
        "Basic " + base64.b64encode(b"\xff\xfe:\xff").decode(),  # decodes to bytes that are not UTF-8
        "Basic \xff\xfe",  # not base64 at all
    ],
)
async def test_http_basic_that_cannot_be_read_is_invalid_request(client, header):
    data = {"grant_type": "refresh_token", "refresh_token": "ort_nada"}
    response = await client.post("/oauth/token", data=data, headers={"Authorization": header})
    await oauth_error(response, 400, "invalid_request")


async def test_a_json_field_sent_twice_is_repeated_like_a_form_field(client, oauth, integrator):
    app = await oauth.app(integrator)
    other = await oauth.app(integrator, nome="Outro app")
    consentimento = await oauth.consentir(app)
    troca = oauth.troca(app, consentimento)
    pairs = [f'"{k}": "{v}"' for k, v in troca.items()]
    # the first client_id is the one the code belongs to; a parser keeping the last would not see it
    body = "{" + ", ".join(pairs + [f'"client_id": "{other.client_id}"', f'"client_id": "{app.client_id}"']) + "}"
    response = await client.post("/oauth/token", data=body.encode(), headers=JSON | oauth.basic(app)["headers"])
    await oauth_error(response, 400, "invalid_request")


# -- the integrator's state reaches oat_ tokens at once ---------------------------------------


async def test_a_paused_integrator_is_403_for_its_oauth_tokens_at_once(client, oauth, integrator):
    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    headers = auth(tokens["access_token"])
    assert (await client.get("/v1/contas", headers=headers)).status == 200  # cached from here on
    _, body = await graphql(
        client,
        await staff_token(),
        'mutation($id: String!) { pausarIntegrador(id: $id, motivo: "Fatura em aberto") { situacao } }',
        id=integrator.id,
    )
    assert body["data"]["pausarIntegrador"]["situacao"] == "pausado"
    response = await client.get("/v1/contas", headers=headers)
    assert response.status == 403
    assert_error(await response.json(), "INTEGRATOR_PAUSED")


async def test_suspended_production_is_403_for_oat_live_tokens_at_once(client, oauth, integrator):
    app = await oauth.app(integrator, ambiente="producao")
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    assert tokens["access_token"].startswith("oat_live_")
    headers = auth(tokens["access_token"])
    assert (await client.get("/v1/contas", headers=headers)).status == 200  # cached from here on
    _, body = await graphql(
        client,
        await staff_token(),
        'mutation($id: String!) { suspenderProducao(id: $id, motivo: "Abuso de limites") { producaoSituacao } }',
        id=integrator.id,
    )
    assert body["data"]["suspenderProducao"]["producaoSituacao"] == "suspensa"
    response = await client.get("/v1/contas", headers=headers)
    assert response.status == 403
    assert_error(await response.json(), "FORBIDDEN")


# -- what the seller's revocation promises ----------------------------------------------------


async def test_after_the_seller_revokes_the_api_key_cannot_change_the_linked_account(client, oauth, integrator):
    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    conta = tokens["conta_id"]
    put = await client.put(
        f"/v1/contas/{conta}/produtos/sku-1", json={"nome": "Da loja"}, headers=auth(tokens["access_token"])
    )
    assert put.status == 200, await put.text()
    revoked = await client.post("/oauth/revogar", data={"token": tokens["refresh_token"]}, **oauth.basic(app))
    assert revoked.status == 200
    response = await client.put(
        f"/v1/contas/{conta}/produtos/sku-1", json={"nome": "Do integrador"}, headers=integrator.headers
    )
    assert response.status == 403, await response.text()
    assert (await response.json())["error"]["type"] == "FORBIDDEN"
    for path in (f"/v1/contas/{conta}/produtos/sku-1", f"/v1/contas/{conta}/produtos"):
        assert (await client.get(path, headers=integrator.headers)).status == 403
    assert (await client.delete(f"/v1/contas/{conta}/produtos/sku-1", headers=integrator.headers)).status == 403
    assert (await Produto.get(conta_id=conta, codigo="sku-1")).nome == "Da loja"


async def test_the_api_key_does_not_write_where_the_seller_granted_only_reading(client, oauth, integrator):
    app = await oauth.app(integrator, escopos=["produtos:ler"])
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    conta = tokens["conta_id"]
    response = await client.put(
        f"/v1/contas/{conta}/produtos/sku-1", json={"nome": "Do integrador"}, headers=integrator.headers
    )
    assert response.status == 403, await response.text()


async def test_the_api_key_sees_the_linked_account_but_none_of_its_content(client, factory, oauth, integrator):
    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    conta = tokens["conta_id"]
    produto = await client.put(
        f"/v1/contas/{conta}/produtos/sku-1", json={"nome": "Da loja"}, headers=auth(tokens["access_token"])
    )
    produto_id = (await produto.json())["data"]["id"]
    geracao = await factory.geracao(integrator, conta_id=conta)
    # the account itself: yes (its id and situacao, for the integrator's records)
    assert (await client.get(f"/v1/contas/{conta}", headers=integrator.headers)).status == 200
    # its content: only through the seller's token
    assert (await client.get(f"/v1/geracoes/{geracao.id}", headers=integrator.headers)).status == 404
    assert (await client.get(f"/v1/geracoes/{geracao.id}", headers=auth(tokens["access_token"]))).status == 200
    assert (await client.post(f"/v1/produtos/{produto_id}/conferencia", headers=integrator.headers)).status == 404
    # the integrator's own sub-accounts are untouched by the rule
    sub = await factory.conta(integrator)
    own = await factory.produto(integrator, sub)
    assert own["contaId"] == sub["id"]


async def test_a_revocation_during_a_token_lookup_is_not_undone_by_the_cache(client, oauth, integrator, monkeypatch):
    """A request reads the token's row just before the revocation commits and clears the caches:
    what it read may answer that one request, but must not be cached for the next ones."""
    from graphql_api.oauth import repository, tokens

    app = await oauth.app(integrator)
    emitidos = await oauth.tokens(app, await oauth.consentir(app))
    ler = repository.token_de_acesso

    async def ler_e_revogar_em_seguida(resumo):
        row = await ler(resumo)
        monkeypatch.setattr(repository, "token_de_acesso", ler)
        runtime = oauth.factory.runtime
        chamador = tokens.Chamador(runtime.limiter, "127.0.0.1", runtime.settings.rate_limit_unauthenticated_per_ip)
        autenticado = await tokens.autenticar_cliente(tokens.Credenciais(app.client_id, app.client_secret), chamador)
        await tokens.revogar(emitidos["refresh_token"], autenticado, chamador, bus=runtime.bus)
        return row

    monkeypatch.setattr(repository, "token_de_acesso", ler_e_revogar_em_seguida)
    headers = auth(emitidos["access_token"])
    assert (await client.get("/v1/contas", headers=headers)).status == 200  # began before the revocation
    response = await client.get("/v1/contas", headers=headers)
    assert response.status == 401
    assert_error(await response.json(), "UNAUTHORIZED")


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
@pytest.mark.parametrize("path", ["/oauth/token", "/oauth/revogar"])
async def test_other_methods_get_an_oauth_error_too(client, method, path):
    response = await client.request(method, path)
    await oauth_error(response, 405, "invalid_request")
    assert response.headers["Allow"] == "POST"
