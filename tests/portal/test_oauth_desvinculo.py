"""A seller's authorisation from start to end, as the seller, the integrator and its notice
receiver see it (docs/oauth.md, "Quando o vendedor sai"): a consent whose code is never exchanged
opens nothing, every way an authorisation ends pauses the account it leaves without one and sends
conta.desvinculada, each integrator knows a seller by an id of its own, and an expired token is
told so and logged."""

import pytest

from graphql_api.vendedor.models import Vendedor
from tests.factories import Integrator, auth, eventually
from tests.portal.conftest import create_key, integrador_id


@pytest.fixture
async def integradora(portal, owner, client, receptor):
    """An integrator whose owner is signed in on `portal`, with a test key and a notice address
    subscribed to conta.desvinculada."""
    integrator = Integrator(await integrador_id(owner), await create_key(portal))
    response = await client.put(
        "/v1/avisos", json={"url": receptor.url, "eventos": ["conta.desvinculada"]}, headers=integrator.headers
    )
    assert response.status == 201, await response.text()
    receptor.segredos.append((await response.json())["data"]["segredo"])
    return integrator


@pytest.fixture
async def vendedor(new_portal):
    """A seller signed in on a browser of their own; (browser, vendedor_id)."""
    browser = await new_portal()
    pessoa = await browser.seller_signup(nome="Loja da Ana")
    return browser, (await Vendedor.get(email=pessoa.email)).id


async def conta(client, integrator, conta_id: str) -> dict:
    response = await client.get(f"/v1/contas/{conta_id}", headers=integrator.headers)
    assert response.status == 200, await response.text()
    return (await response.json())["data"]


async def desvinculos(receptor, conta_id: str, quantos: int = 1) -> list[dict]:
    """The verified conta.desvinculada deliveries about this account, once `quantos` arrived."""

    async def chegaram():
        achados = [
            r.evento
            for r in receptor.recebidos
            if r.valido and r.evento["tipo"] == "conta.desvinculada" and r.evento["data"]["contaId"] == conta_id
        ]
        assert len(achados) >= quantos, achados
        return achados

    return await eventually(chegaram, timeout=30, interval=0.1)


async def test_a_consent_never_exchanged_keeps_nothing_open(client, oauth, integradora, vendedor, receptor):
    browser, vendedor_id = vendedor
    app = await oauth.app(integradora, nome="Conector Lento")

    # a consent whose code the app never exchanges: nothing is connected, the account is not active
    await oauth.consentir(app, vendedor_id)
    page = await browser.page("/vendedor/apps")
    assert "Conector Lento" not in page and "Nenhum app conectado" in page

    # the app gets a real grant from a second consent, while the first code still waits
    tokens = await oauth.tokens(app, await oauth.consentir(app, vendedor_id))
    pendente = await oauth.consentir(app, vendedor_id)
    assert (await conta(client, integradora, tokens["conta_id"]))["situacao"] == "ativa"
    assert "Conector Lento" in await browser.page("/vendedor/apps")

    # when the integrator revokes its grant, the pending consent does not keep the account open
    revogado = await client.post("/oauth/revogar", data={"token": tokens["refresh_token"]}, **oauth.basic(app))
    assert revogado.status == 200
    assert (await conta(client, integradora, tokens["conta_id"]))["situacao"] == "pausada"
    assert (await client.get("/v1/contas", headers=auth(tokens["access_token"]))).status == 401
    page = await browser.page("/vendedor/apps")
    assert "Conector Lento" not in page and "Nenhum app conectado" in page
    [evento] = await desvinculos(receptor, tokens["conta_id"])
    assert evento["data"]["motivo"] == "integrador_revogou" and evento["data"]["clientId"] == app.client_id
    assert evento["contaId"] == tokens["conta_id"]

    # the code still pending is the seller's consent: exchanged in time, it brings the account back
    volta = await oauth.tokens(app, pendente)
    assert volta["conta_id"] == tokens["conta_id"]
    assert (await conta(client, integradora, tokens["conta_id"]))["situacao"] == "ativa"


async def test_the_seller_revoking_tells_the_integrator(client, oauth, integradora, vendedor, receptor):
    browser, vendedor_id = vendedor
    app = await oauth.app(integradora, nome="Anúncios Já")
    tokens = await oauth.tokens(app, await oauth.consentir(app, vendedor_id))
    response = await browser.submit(f"/vendedor/apps/{app.client_id}/revogar", {}, token_from="/vendedor/apps")
    assert response.status == 303
    [evento] = await desvinculos(receptor, tokens["conta_id"])
    data = evento["data"]
    assert data["motivo"] == "vendedor_revogou" and data["clientId"] == app.client_id
    assert data["desvinculadaEm"].endswith("Z")
    assert (await conta(client, integradora, tokens["conta_id"]))["situacao"] == "pausada"


async def test_disabling_the_app_ends_its_authorisations(client, portal, oauth, integradora, vendedor, receptor):
    browser, vendedor_id = vendedor
    app = await oauth.app(integradora, nome="App Antigo")
    tokens = await oauth.tokens(app, await oauth.consentir(app, vendedor_id))
    assert "App Antigo" in await browser.page("/vendedor/apps")

    response = await portal.submit(f"/apps/{app.client_id}/desativar", {})
    assert response.status == 303

    assert "App Antigo" not in await browser.page("/vendedor/apps")
    assert (await conta(client, integradora, tokens["conta_id"]))["situacao"] == "pausada"
    [evento] = await desvinculos(receptor, tokens["conta_id"])
    assert evento["data"]["motivo"] == "app_desativado"
    refused = await client.get("/v1/contas", headers=auth(tokens["access_token"]))
    assert refused.status == 401 and "desativado" in (await refused.json())["error"]["description"]


async def test_a_replayed_code_unlinks_for_safety(client, oauth, integradora, vendedor, receptor):
    _, vendedor_id = vendedor
    app = await oauth.app(integradora)
    consentimento = await oauth.consentir(app, vendedor_id)
    tokens = await oauth.tokens(app, consentimento)
    replay = await client.post("/oauth/token", data=oauth.troca(app, consentimento), **oauth.basic(app))
    assert replay.status == 400 and (await replay.json())["error"] == "invalid_grant"
    [evento] = await desvinculos(receptor, tokens["conta_id"])
    assert evento["data"]["motivo"] == "credencial_reutilizada"


async def test_an_account_with_another_apps_grant_stays_linked(client, oauth, integradora, vendedor, receptor):
    _, vendedor_id = vendedor
    primeiro, segundo = await oauth.app(integradora, nome="Um"), await oauth.app(integradora, nome="Dois")
    tokens_1 = await oauth.tokens(primeiro, await oauth.consentir(primeiro, vendedor_id))
    tokens_2 = await oauth.tokens(segundo, await oauth.consentir(segundo, vendedor_id))
    assert tokens_1["conta_id"] == tokens_2["conta_id"]  # one account per seller and integrator
    await client.post("/oauth/revogar", data={"token": tokens_1["refresh_token"]}, **oauth.basic(primeiro))
    assert (await conta(client, integradora, tokens_1["conta_id"]))["situacao"] == "ativa"
    assert (await client.get("/v1/contas", headers=auth(tokens_2["access_token"]))).status == 200
    # only once the last grant ends is the integrator told, naming the app that ended it
    await client.post("/oauth/revogar", data={"token": tokens_2["access_token"]}, **oauth.basic(segundo))
    [evento] = await desvinculos(receptor, tokens_1["conta_id"])
    assert evento["data"]["clientId"] == segundo.client_id


async def test_each_integrator_knows_the_seller_by_an_id_of_its_own(client, factory, oauth, vendedor):
    _, vendedor_id = vendedor
    ids = []
    for nome in ("Integradora A", "Integradora B"):
        integrator = await factory.integrator(nome=nome)
        app = await oauth.app(integrator)
        tokens = await oauth.tokens(app, await oauth.consentir(app, vendedor_id))
        ids.append((await conta(client, integrator, tokens["conta_id"]))["codigoExterno"])
        # authorising again after a revocation brings back the same account, under the same id
        await client.post("/oauth/revogar", data={"token": tokens["refresh_token"]}, **oauth.basic(app))
        de_novo = await oauth.tokens(app, await oauth.consentir(app, vendedor_id))
        assert de_novo["conta_id"] == tokens["conta_id"]
        assert (await conta(client, integrator, tokens["conta_id"]))["codigoExterno"] == ids[-1]
    assert ids[0] != ids[1]
    assert vendedor_id not in ids and all(i.startswith("vdr_") for i in ids)


async def test_an_expired_token_is_told_to_refresh_and_logged(client, oauth, integrator, relogio):
    from graphql_api.oauth import tokens as oauth_tokens

    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    relogio.avancar(seconds=3630)
    await oauth_tokens.expurgar()  # the hourly purge ran in that hour

    refused = await client.get("/v1/contas", headers=auth(tokens["access_token"]))
    assert refused.status == 401
    error = (await refused.json())["error"]
    assert (
        error["type"] == "UNAUTHORIZED"
        and "expirado" in error["description"]
        and "refresh_token" in error["description"]
    )
    request_id = refused.headers["X-Request-Id"]

    async def registrada():
        detalhe = await client.get(f"/v1/integracao/chamadas/{request_id}", headers=integrator.headers)
        assert detalhe.status == 200, await detalhe.text()
        return (await detalhe.json())["data"]

    chamada = await eventually(registrada, timeout=10)
    assert chamada["status"] == 401 and chamada["credencial"] == "oauth" and chamada["clientId"] == app.client_id
    # and the refresh token it points to does work
    renewed = await client.post(
        "/oauth/token",
        data={"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]},
        **oauth.basic(app),
    )
    assert renewed.status == 200
