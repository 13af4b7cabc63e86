"""The whole OAuth flow driven by a real OAuth client library, as an integrator would write it
(docs/oauth.md, "Exemplo completo"): authlib's AsyncOAuth2Client with PKCE S256 configures itself
from the RFC 8414 metadata, sends the seller to the consent screen, exchanges the code, calls
/v1, refreshes and revokes."""

import secrets
from urllib.parse import parse_qs, urlsplit

import pytest
from authlib.common.security import generate_token
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.httpx_client import AsyncOAuth2Client

REDIRECT = "http://127.0.0.1:8765/retorno"


async def consent_in_browser(portal, authorization_url: str) -> str:
    """The seller's browser: opens the authorisation address, presses "Autorizar"; the address
    the browser is then sent to (the app's redirect_uri with the code)."""
    path = authorization_url.split("://", 1)[1].split("/", 1)[1]
    query = {k: v[0] for k, v in parse_qs(urlsplit(authorization_url).query).items()}
    response = await portal.submit("/oauth/autorizar", query | {"decisao": "autorizar"}, token_from="/" + path)
    assert response.status == 303, await response.text()
    return response.headers["Location"]


@pytest.mark.parametrize("tipo", ["confidencial", "publico"])
async def test_authlib_client_runs_the_whole_flow(client, portal, oauth, integrator, tipo):
    base = str(client.make_url("")).rstrip("/")
    app = await oauth.app(integrator, tipo=tipo, redirect_uri=REDIRECT)
    await portal.seller_signup(nome="Loja do Fluxo")
    async with AsyncOAuth2Client(
        client_id=app.client_id,
        client_secret=app.client_secret,
        redirect_uri=REDIRECT,
        scope="contas:ler produtos:ler geracoes:ler",
        code_challenge_method="S256",
        token_endpoint_auth_method="client_secret_basic" if app.client_secret else "none",
    ) as integrador:
        meta = (
            await integrador.request("GET", f"{base}/.well-known/oauth-authorization-server", withhold_token=True)
        ).json()
        # The metadata names the service's public address; this test server listens elsewhere.
        meta |= {
            k: base + urlsplit(meta[k]).path
            for k in ("authorization_endpoint", "token_endpoint", "revocation_endpoint")
        }
        verifier = generate_token(64)
        url, state = integrador.create_authorization_url(meta["authorization_endpoint"], code_verifier=verifier)
        volta = await consent_in_browser(portal, url)
        assert parse_qs(urlsplit(volta).query)["iss"] == [meta["issuer"]]

        token = await integrador.fetch_token(
            meta["token_endpoint"], authorization_response=volta, code_verifier=verifier, state=state
        )
        assert (
            token["access_token"].startswith("oat_test_") and token["scope"] == "contas:ler produtos:ler geracoes:ler"
        )
        conta = await integrador.get(f"{base}/v1/contas/{token['conta_id']}")
        assert conta.status_code == 200 and conta.json()["data"]["nome"] == "Loja do Fluxo"

        renewed = await integrador.refresh_token(meta["token_endpoint"], refresh_token=token["refresh_token"])
        assert renewed["refresh_token"] != token["refresh_token"]
        assert (await integrador.get(f"{base}/v1/contas")).status_code == 200  # the client uses the new token

        revoked = await integrador.revoke_token(meta["revocation_endpoint"], token=renewed["refresh_token"])
        assert revoked.status_code == 200
        after = await integrador.get(f"{base}/v1/contas")
        assert after.status_code == 401 and after.json()["error"]["type"] == "UNAUTHORIZED"
        with pytest.raises(OAuthError) as refused:
            await integrador.refresh_token(meta["token_endpoint"], refresh_token=renewed["refresh_token"])
        assert refused.value.error == "invalid_grant"


@pytest.mark.parametrize(
    ("registrado", "usado"),
    [
        ("http://127.0.0.1/oauth/volta", "http://127.0.0.1:{porta}/oauth/volta"),
        ("http://[::1]:8080/oauth/volta", "http://[::1]:{porta}/oauth/volta"),
        ("com.exemplo.app:/oauth/volta", "com.exemplo.app:/oauth/volta"),
    ],
    ids=["127.0.0.1", "[::1]", "own scheme"],
)
async def test_a_native_production_app_runs_the_flow_with_its_own_redirect(
    client, portal, oauth, factory, integrator, registrado, usado
):
    """RFC 8252: a public production app installed on the seller's device, back through the
    loopback interface on the port the system gave it this time, or through its own scheme."""
    base = str(client.make_url("")).rstrip("/")
    app = await oauth.app(integrator, tipo="publico", ambiente="producao", redirect_uri=registrado)
    await portal.seller_signup(nome="Loja do Celular")
    redirect_uri = usado.format(porta=49152 + secrets.randbelow(16000))
    async with AsyncOAuth2Client(
        client_id=app.client_id,
        redirect_uri=redirect_uri,
        scope="contas:ler",
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    ) as aplicativo:
        verifier = generate_token(64)
        url, state = aplicativo.create_authorization_url(f"{base}/oauth/autorizar", code_verifier=verifier)
        volta = await consent_in_browser(portal, url)
        assert volta.startswith(redirect_uri + "?code=oac_"), volta
        token = await aplicativo.fetch_token(
            f"{base}/oauth/token", authorization_response=volta, code_verifier=verifier, state=state
        )
        assert token["access_token"].startswith("oat_live_")
        conta = await aplicativo.get(f"{base}/v1/contas/{token['conta_id']}")
        assert conta.status_code == 200 and conta.json()["data"]["nome"] == "Loja do Celular"


async def test_the_token_step_needs_the_port_the_authorisation_used(client, portal, oauth, integrator):
    """Any port at the authorisation; at the token step, the very redirect_uri sent there (RFC 6749
    §4.1.3): another port is another address."""
    base = str(client.make_url("")).rstrip("/")
    app = await oauth.app(integrator, tipo="publico", redirect_uri="http://127.0.0.1/oauth/volta")
    await portal.seller_signup()
    async with AsyncOAuth2Client(
        client_id=app.client_id,
        redirect_uri="http://127.0.0.1:50001/oauth/volta",
        scope="contas:ler",
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    ) as aplicativo:
        verifier = generate_token(64)
        url, state = aplicativo.create_authorization_url(f"{base}/oauth/autorizar", code_verifier=verifier)
        volta = await consent_in_browser(portal, url)
        with pytest.raises(OAuthError) as refused:
            await aplicativo.fetch_token(
                f"{base}/oauth/token",
                authorization_response=volta,
                code_verifier=verifier,
                state=state,
                redirect_uri="http://127.0.0.1:50002/oauth/volta",
            )
        assert refused.value.error == "invalid_grant" and "redirect_uri" in refused.value.description
