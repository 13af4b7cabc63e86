"""RFC 6750 §3 on /v1: a refused Bearer credential (an oat_ token or an API key) is told so in
WWW-Authenticate as well as in the error body, read here with werkzeug's parser as a client
library would; the JSON body stays the contract's."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import WWWAuthenticate

from tests.api.test_auth import assert_error
from tests.api.test_oauth_v1 import assert_missing_scope, estreitar, vincular
from tests.factories import auth


def challenge(response) -> WWWAuthenticate:
    parsed = WWWAuthenticate.from_header(response.headers.get("WWW-Authenticate"))
    assert parsed is not None, dict(response.headers)
    assert parsed.type == "bearer" and parsed.parameters["realm"] == "Vitrine"
    return parsed


async def assert_invalid_token(response, *words: str) -> WWWAuthenticate:
    assert response.status == 401, await response.text()
    assert_error(await response.json(), "UNAUTHORIZED")
    parsed = challenge(response)
    assert parsed.parameters["error"] == "invalid_token"
    description = parsed.parameters["error_description"]
    assert description and description.isascii(), description
    for word in words:
        assert word in description, description
    return parsed


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Basic YXBwOnNlZ3JlZG8="}, {"Authorization": "Bearer "}],
    ids=["nothing", "basic", "empty bearer"],
)
async def test_no_bearer_credential_gets_the_challenge_without_an_error_code(client, headers):
    response = await client.get("/v1/contas", headers=headers)
    assert response.status == 401
    assert_error(await response.json(), "UNAUTHORIZED")
    parsed = challenge(response)
    assert set(parsed.parameters) == {"realm"}, parsed.parameters


async def test_refused_oauth_tokens_are_invalid_token(client, oauth, integrator, relogio):
    vinculo = await vincular(oauth, integrator)
    # unknown, and malformed
    await assert_invalid_token(await client.get("/v1/contas", headers=auth("oat_test_" + "a" * 40)), "inexistente")
    await assert_invalid_token(await client.get("/v1/contas", headers=auth("oat_nada")), "formato")
    # expired: the description, with its accents and "…" spelled in ASCII
    relogio.avancar(minutes=61)
    expired = await client.get("/v1/contas", headers=vinculo.headers)
    parsed = await assert_invalid_token(expired, "expirado", "refresh_token")
    assert (await expired.json())["error"]["description"] == "Token OAuth expirado (vale 1 hora): use o refresh_token."
    assert parsed.parameters["error_description"] == "Token OAuth expirado (vale 1 hora): use o refresh_token."


async def test_a_revoked_authorisation_is_invalid_token(client, oauth, integrator):
    vinculo = await vincular(oauth, integrator)
    revoked = await client.post("/oauth/revogar", data={"token": vinculo.refresh_token}, **oauth.basic(vinculo.app))
    assert revoked.status == 200
    parsed = await assert_invalid_token(await client.get("/v1/contas", headers=vinculo.headers), "revogada")
    assert parsed.parameters["error_description"] == (
        "A autorizacao deste token foi revogada; a conta vinculada esta pausada."
    )


async def test_refused_api_keys_get_the_same_challenge(client, integrator):
    wrong = integrator.key[:-1] + ("x" if integrator.key[-1] != "x" else "y")
    await assert_invalid_token(await client.get("/v1/saldo", headers=auth(wrong)), "inexistente")
    await assert_invalid_token(await client.get("/v1/saldo", headers=auth("nonsense")), "Credencial")


async def test_a_missing_scope_is_insufficient_scope_naming_it(client, oauth, integrator):
    pleno = await vincular(oauth, integrator)
    leitor = await estreitar(client, oauth, pleno, ["produtos:ler"])
    response = await client.get(f"/v1/contas/{pleno.conta_id}", headers=leitor.headers)
    await assert_missing_scope(response, "contas:ler")  # the body as before
    parsed = challenge(response)
    assert parsed.parameters["error"] == "insufficient_scope"
    assert parsed.parameters["scope"] == "contas:ler"
    # no challenge where no scope would help (integrator-only), nor where nothing was refused
    integrator_only = await client.get("/v1/saldo", headers=pleno.headers)
    assert integrator_only.status == 403 and "WWW-Authenticate" not in integrator_only.headers
    ok = await client.get("/v1/contas", headers=pleno.headers)
    assert ok.status == 200 and "WWW-Authenticate" not in ok.headers
