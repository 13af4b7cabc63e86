"""POST /oauth/token and /oauth/revogar over HTTP, as the contract's OAuth rules and its table
of token endpoint errors say, and oat_ tokens on /v1."""

import base64

import pytest

from graphql_api.conta.models import Conta
from graphql_api.oauth.models import AppOAuth
from tests.factories import auth

NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


async def token_call(client, data, *, app=None, oauth=None, headers=None, json_body=False):
    headers = (oauth.basic(app).get("headers", {}) if (oauth and app) else {}) | (headers or {})
    if json_body:
        return await client.post("/oauth/token", json=data, headers=headers)
    return await client.post("/oauth/token", data=data, headers=headers)


async def oauth_error(response, status: int, error: str) -> dict:
    assert response.status == status, await response.text()
    for name, value in NO_STORE.items():
        assert response.headers[name] == value
    body = await response.json()
    assert body["error"] == error, body
    assert body["error_description"].isascii() and body["error_description"]
    return body


async def test_code_exchange_answers_the_contract_token_response(client, oauth, integrator):
    app = await oauth.app(integrator)
    consentimento = await oauth.consentir(app, scope="produtos:ler geracoes:ler")
    response = await client.post("/oauth/token", data=oauth.troca(app, consentimento), **oauth.basic(app))
    assert response.status == 200
    for name, value in NO_STORE.items():
        assert response.headers[name] == value
    body = await response.json()
    assert set(body) == {"access_token", "token_type", "expires_in", "refresh_token", "scope", "conta_id"}
    assert body["access_token"].startswith("oat_test_") and body["refresh_token"].startswith("ort_")
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    assert body["scope"] == "produtos:ler geracoes:ler"
    conta = await Conta.get(id=body["conta_id"])
    assert (conta.origem, conta.situacao, conta.integrador_id) == ("vinculada", "ativa", integrator.id)
    assert consentimento.callback.startswith(app.redirect_uri + "?")
    assert "iss=" in consentimento.callback


async def test_the_token_opens_only_its_linked_account(client, factory, oauth, integrator):
    app = await oauth.app(integrator)
    outra = await factory.conta(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    headers = auth(tokens["access_token"])
    listed = await client.get("/v1/contas", headers=headers)
    assert listed.status == 200, await listed.text()
    assert [c["id"] for c in (await listed.json())["data"]] == [tokens["conta_id"]]
    own = await client.get(f"/v1/contas/{tokens['conta_id']}", headers=headers)
    assert own.status == 200 and (await own.json())["data"]["origem"] == "vinculada"
    other = await client.get(f"/v1/contas/{outra['id']}", headers=headers)
    assert other.status == 404
    saldo = await client.get("/v1/saldo", headers=headers)
    assert saldo.status == 403 and (await saldo.json())["error"]["type"] == "FORBIDDEN"


async def test_json_bodies_and_body_credentials_are_accepted(client, oauth, integrator):
    app = await oauth.app(integrator)
    consentimento = await oauth.consentir(app)
    data = oauth.troca(app, consentimento) | {"client_id": app.client_id, "client_secret": app.client_secret}
    response = await client.post("/oauth/token", json=data)
    assert response.status == 200, await response.text()


async def test_basic_and_body_secret_together_are_invalid_request(client, oauth, integrator):
    app = await oauth.app(integrator)
    consentimento = await oauth.consentir(app)
    data = oauth.troca(app, consentimento) | {"client_secret": app.client_secret}
    await oauth_error(await token_call(client, data, app=app, oauth=oauth), 400, "invalid_request")


async def test_code_replay_is_invalid_grant_and_revokes_what_the_code_gave(client, oauth, integrator):
    app = await oauth.app(integrator)
    consentimento = await oauth.consentir(app)
    tokens = await oauth.tokens(app, consentimento)
    assert (await client.get("/v1/contas", headers=auth(tokens["access_token"]))).status == 200
    await oauth_error(
        await token_call(client, oauth.troca(app, consentimento), app=app, oauth=oauth), 400, "invalid_grant"
    )
    refused = await client.get("/v1/contas", headers=auth(tokens["access_token"]))
    assert refused.status == 401
    assert (await refused.json())["error"]["type"] == "UNAUTHORIZED"
    refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]}
    await oauth_error(await token_call(client, refresh, app=app, oauth=oauth), 400, "invalid_grant")


async def test_wrong_verifier_kills_the_code_and_ends_the_authorisation(client, oauth, integrator):
    app = await oauth.app(integrator)
    consentimento = await oauth.consentir(app)
    wrong = oauth.troca(app, consentimento) | {"code_verifier": "x" * 64}
    await oauth_error(await token_call(client, wrong, app=app, oauth=oauth), 400, "invalid_grant")
    # the right verifier comes too late: the code died with the wrong one
    await oauth_error(
        await token_call(client, oauth.troca(app, consentimento), app=app, oauth=oauth), 400, "invalid_grant"
    )
    conta = await Conta.get(vendedor_id__isnull=False, integrador_id=integrator.id)
    assert conta.situacao == "pausada"


@pytest.mark.parametrize(
    "variant",
    [
        "https://app.integradora.test/callback/",
        "https://APP.integradora.test/callback",
        "https://app.integradora.test/callback?x=1",
        "http://app.integradora.test/callback",
    ],
)
async def test_redirect_uri_must_be_identical_at_the_token_endpoint(client, oauth, integrator, variant):
    app = await oauth.app(integrator)
    consentimento = await oauth.consentir(app)
    data = oauth.troca(app, consentimento) | {"redirect_uri": variant}
    await oauth_error(await token_call(client, data, app=app, oauth=oauth), 400, "invalid_grant")


async def test_missing_and_repeated_parameters_are_invalid_request(client, oauth, integrator):
    app = await oauth.app(integrator)
    consentimento = await oauth.consentir(app)
    data = oauth.troca(app, consentimento)
    for missing in ("code", "redirect_uri", "code_verifier", "grant_type"):
        partial = {k: v for k, v in data.items() if k != missing}
        await oauth_error(await token_call(client, partial, app=app, oauth=oauth), 400, "invalid_request")
    repeated = list(data.items()) + [("code", consentimento.code)]
    response = await client.post("/oauth/token", data=repeated, **oauth.basic(app))
    await oauth_error(response, 400, "invalid_request")


async def test_unknown_grant_type(client, oauth, integrator):
    app = await oauth.app(integrator)
    data = {"grant_type": "password", "username": "a", "password": "b"}
    await oauth_error(await token_call(client, data, app=app, oauth=oauth), 400, "unsupported_grant_type")


async def test_client_authentication_failures_are_invalid_client(client, oauth, integrator):
    app = await oauth.app(integrator)
    consentimento = await oauth.consentir(app)
    data = oauth.troca(app, consentimento)
    wrong = base64.b64encode(f"{app.client_id}:cs_test_{'x' * 40}".encode()).decode()
    response = await client.post("/oauth/token", data=data, headers={"Authorization": f"Basic {wrong}"})
    await oauth_error(response, 401, "invalid_client")
    unknown = {"client_id": "app_" + "0" * 26, "client_secret": "cs_test_x"} | data
    await oauth_error(await token_call(client, unknown), 401, "invalid_client")
    no_secret = data | {"client_id": app.client_id}
    await oauth_error(await token_call(client, no_secret), 401, "invalid_client")
    # the code was never spent by those failures
    assert (await token_call(client, data, app=app, oauth=oauth)).status == 200


async def test_public_app_sends_only_client_id_and_a_secret_is_refused(client, oauth, integrator):
    app = await oauth.app(integrator, tipo="publico")
    consentimento = await oauth.consentir(app)
    with_secret = oauth.troca(app, consentimento) | {"client_secret": "cs_test_" + "a" * 40}
    await oauth_error(await token_call(client, with_secret), 401, "invalid_client")
    tokens = await oauth.tokens(app, consentimento)
    assert tokens["access_token"].startswith("oat_test_")


async def test_a_code_of_another_app_is_invalid_grant(client, factory, oauth, integrator):
    app = await oauth.app(integrator)
    other = await oauth.app(await factory.integrator(nome="Outra"), redirect_uri=app.redirect_uri)
    consentimento = await oauth.consentir(app)
    await oauth_error(
        await token_call(client, oauth.troca(other, consentimento), app=other, oauth=oauth), 400, "invalid_grant"
    )
    assert (await token_call(client, oauth.troca(app, consentimento), app=app, oauth=oauth)).status == 200


async def test_refresh_rotates_and_reuse_revokes_the_whole_family(client, oauth, integrator):
    app = await oauth.app(integrator)
    first = await oauth.tokens(app, await oauth.consentir(app))
    refresh = {"grant_type": "refresh_token", "refresh_token": first["refresh_token"]}
    response = await token_call(client, refresh, app=app, oauth=oauth)
    assert response.status == 200, await response.text()
    second = await response.json()
    assert second["refresh_token"] != first["refresh_token"] and second["conta_id"] == first["conta_id"]
    assert (await client.get("/v1/contas", headers=auth(second["access_token"]))).status == 200
    # the rotated refresh token presented again: the whole family ends
    await oauth_error(await token_call(client, refresh, app=app, oauth=oauth), 400, "invalid_grant")
    for access in (first["access_token"], second["access_token"]):
        assert (await client.get("/v1/contas", headers=auth(access))).status == 401
    newer = {"grant_type": "refresh_token", "refresh_token": second["refresh_token"]}
    await oauth_error(await token_call(client, newer, app=app, oauth=oauth), 400, "invalid_grant")


async def test_refresh_may_narrow_the_scope_but_not_widen_it(client, oauth, integrator):
    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app, scope="produtos:ler geracoes:ler"))
    wider = {
        "grant_type": "refresh_token",
        "refresh_token": tokens["refresh_token"],
        "scope": "produtos:ler geracoes:criar",
    }
    await oauth_error(await token_call(client, wider, app=app, oauth=oauth), 400, "invalid_scope")
    narrower = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"], "scope": "geracoes:ler"}
    response = await token_call(client, narrower, app=app, oauth=oauth)
    assert response.status == 200, await response.text()
    narrowed = await response.json()
    assert narrowed["scope"] == "geracoes:ler"
    # the refresh token still carries what the seller authorised
    again = {"grant_type": "refresh_token", "refresh_token": narrowed["refresh_token"]}
    assert (await (await token_call(client, again, app=app, oauth=oauth)).json())[
        "scope"
    ] == "produtos:ler geracoes:ler"


async def test_revocation_ends_the_authorisation_and_pauses_the_account(client, oauth, integrator):
    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    response = await client.post("/oauth/revogar", data={"token": tokens["refresh_token"]}, **oauth.basic(app))
    assert response.status == 200
    assert response.headers["Cache-Control"] == "no-store"
    refused = await client.get("/v1/contas", headers=auth(tokens["access_token"]))
    assert refused.status == 401
    assert (await Conta.get(id=tokens["conta_id"])).situacao == "pausada"
    # unknown tokens: 200 all the same (RFC 7009)
    unknown = await client.post("/oauth/revogar", data={"token": "ort_nada"}, **oauth.basic(app))
    assert unknown.status == 200


async def test_a_new_consent_brings_back_the_same_account(client, oauth, integrator):
    app = await oauth.app(integrator)
    vendedor = await oauth.vendedor()
    first = await oauth.tokens(app, await oauth.consentir(app, vendedor))
    await client.post("/oauth/revogar", data={"token": first["access_token"]}, **oauth.basic(app))
    again = await oauth.tokens(app, await oauth.consentir(app, vendedor))
    assert again["conta_id"] == first["conta_id"]
    assert (await Conta.get(id=again["conta_id"])).situacao == "ativa"
    assert (await client.get("/v1/contas", headers=auth(again["access_token"]))).status == 200
    assert (await client.get("/v1/contas", headers=auth(first["access_token"]))).status == 401


async def test_revocation_by_another_app_changes_nothing(client, factory, oauth, integrator):
    app = await oauth.app(integrator)
    other = await oauth.app(await factory.integrator(nome="Outra"))
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    response = await client.post("/oauth/revogar", data={"token": tokens["access_token"]}, **oauth.basic(other))
    assert response.status == 200
    assert (await client.get("/v1/contas", headers=auth(tokens["access_token"]))).status == 200


async def test_a_disabled_app_is_invalid_client_and_its_tokens_401(client, oauth, integrator):
    from graphql_api.oauth.cache import CACHE_TOPIC

    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    await AppOAuth.filter(id=app.client_id).update(situacao="desativado")
    await oauth.factory.runtime.bus.publish(CACHE_TOPIC)
    assert (await client.get("/v1/contas", headers=auth(tokens["access_token"]))).status == 401
    refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]}
    await oauth_error(await token_call(client, refresh, app=app, oauth=oauth), 401, "invalid_client")


async def test_twenty_authentication_failures_block_the_app_for_ten_minutes(client, oauth, integrator):
    app = await oauth.app(integrator)
    wrong = {
        "grant_type": "refresh_token",
        "refresh_token": "ort_nada",
        "client_id": app.client_id,
        "client_secret": "errado",
    }
    for _ in range(20):
        await oauth_error(await token_call(client, wrong), 401, "invalid_client")
    right = {"grant_type": "refresh_token", "refresh_token": "ort_nada"}
    response = await token_call(client, right, app=app, oauth=oauth)
    await oauth_error(response, 429, "temporarily_unavailable")
    assert 500 < int(response.headers["Retry-After"]) <= 600


async def test_metadata_describes_the_server(client):
    response = await client.get("/.well-known/oauth-authorization-server")
    assert response.status == 200
    meta = await response.json()
    base = meta["issuer"]
    assert meta["token_endpoint"] == f"{base}/oauth/token"
    assert meta["authorization_endpoint"] == f"{base}/oauth/autorizar"
    assert meta["revocation_endpoint"] == f"{base}/oauth/revogar"
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert set(meta["grant_types_supported"]) == {"authorization_code", "refresh_token"}
    assert "geracoes:criar" in meta["scopes_supported"] and "creditos:ler" not in meta["scopes_supported"]
    assert meta["authorization_response_iss_parameter_supported"] is True


async def test_purge_removes_week_old_expired_tokens_and_day_old_codes_only(client, oauth, integrator):
    from datetime import timedelta

    from graphql_api.core.relogio import agora
    from graphql_api.oauth import segredos
    from graphql_api.oauth import tokens as oauth_tokens
    from graphql_api.oauth.models import CodigoAutorizacao, TokenOAuth

    app = await oauth.app(integrator)
    spent = await oauth.tokens(app, await oauth.consentir(app))
    unused = await oauth.consentir(app)  # a code nobody exchanged
    mine = CodigoAutorizacao.filter(autorizacao__app_id=app.client_id)
    now = agora()
    await oauth_tokens.expurgar(now)
    assert await mine.count() == 2  # codes stay a day, so a replay is still recognised
    codes, _, _ = await oauth_tokens.expurgar(now + timedelta(days=1, minutes=2))
    assert codes >= 2
    assert await mine.count() == 0 and unused.code
    # an expired access token stays a week, so its caller is still told "expired: refresh"
    assert await TokenOAuth.exists(id=segredos.resumo(spent["access_token"]))
    _, tokens, _ = await oauth_tokens.expurgar(now + timedelta(days=7, hours=1, minutes=2))
    assert tokens >= 1
    assert not await TokenOAuth.exists(id=segredos.resumo(spent["access_token"]))  # 1 hour + 7 days
    assert await TokenOAuth.exists(id=segredos.resumo(spent["refresh_token"]))  # 30 days


async def test_revocation_reaches_another_web_process_at_once(client, aiohttp_client, settings, oauth, integrator):
    """Two web processes' worth of state (each its own runtime and token cache) on the same
    database and Redis: a revocation answered by one is 401 on the other straight away."""
    from tests.factories import eventually
    from tests.harness import BACKEND
    from vitrine.app import create_app

    if BACKEND != "postgres":
        pytest.skip("one process only without Redis: the PostgreSQL + Redis leg runs this")
    other = await aiohttp_client(create_app(settings))
    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    for server in (client, other):  # both have the token in their cache now
        assert (await server.get("/v1/contas", headers=auth(tokens["access_token"]))).status == 200
    response = await client.post("/oauth/revogar", data={"token": tokens["refresh_token"]}, **oauth.basic(app))
    assert response.status == 200

    async def refused_on_the_other() -> None:
        assert (await other.get("/v1/contas", headers=auth(tokens["access_token"]))).status == 401

    await eventually(refused_on_the_other, timeout=2.0, interval=0.02)


async def test_the_code_lives_60_seconds(client, oauth, integrator, relogio):
    app = await oauth.app(integrator)
    late = await oauth.consentir(app)
    in_time = await oauth.consentir(app)
    relogio.avancar(seconds=59)
    assert (await token_call(client, oauth.troca(app, in_time), app=app, oauth=oauth)).status == 200
    relogio.avancar(seconds=2)
    body = await oauth_error(
        await token_call(client, oauth.troca(app, late), app=app, oauth=oauth), 400, "invalid_grant"
    )
    assert "expirado" in body["error_description"]


async def test_the_access_token_lives_an_hour_and_the_refresh_token_30_days(client, oauth, integrator, relogio):
    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    relogio.avancar(minutes=59)
    assert (await client.get("/v1/contas", headers=auth(tokens["access_token"]))).status == 200
    relogio.avancar(minutes=2)
    expired = await client.get("/v1/contas", headers=auth(tokens["access_token"]))
    assert expired.status == 401 and "expirado" in (await expired.json())["error"]["description"]
    # the refresh token still works after the hour, and gives a working access token
    refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]}
    response = await token_call(client, refresh, app=app, oauth=oauth)
    assert response.status == 200, await response.text()
    renewed = await response.json()
    assert (await client.get("/v1/contas", headers=auth(renewed["access_token"]))).status == 200
    relogio.avancar(days=30)
    again = {"grant_type": "refresh_token", "refresh_token": renewed["refresh_token"]}
    body = await oauth_error(await token_call(client, again, app=app, oauth=oauth), 400, "invalid_grant")
    assert "expirado" in body["error_description"]
