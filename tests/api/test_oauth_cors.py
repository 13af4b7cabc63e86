"""CORS for public apps' pages (docs/oauth.md, "Apps no navegador"), over HTTP as a browser sends
it: a page at the origin of an active public app's redirect URI runs the whole flow with `fetch`
(preflights answered without credentials, every answer readable by that origin and no other),
and the set of allowed origins follows app changes at once, in every process. The same journey
in Chromium: e2e/test_oauth_navegador.py."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

import httpx
import pytest
from authlib.common.security import generate_token
from authlib.integrations.httpx_client import AsyncOAuth2Client

from graphql_api.core.principal import ROLE_SCOPES, Ambiente, CredentialKind, Papel, Principal
from graphql_api.oauth import apps
from graphql_api.oauth.cache import CACHE_TOPIC
from graphql_api.oauth.models import AppOAuth
from tests.api.test_auth import assert_error
from tests.factories import eventually

ESTRANHA = "https://outra.exemplo.test"
EXPOSTOS = {
    "x-request-id",
    "retry-after",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "idempotent-replayed",
    "location",
    "www-authenticate",
}


def nova_origem() -> str:
    """Where a public app's page is served: an origin of this test's own (the database is shared)."""
    return f"https://painel-{secrets.token_hex(4)}.integradora.test"


@pytest.fixture
def pagina() -> str:
    return nova_origem()


@pytest.fixture
def retorno(pagina) -> str:
    return f"{pagina}/oauth/retorno"


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",")}


def listed(value: str | None) -> set[str]:
    return {v.strip().lower() for v in (value or "").split(",") if v.strip()}


def assert_readable_by(response, origin: str) -> None:
    assert response.headers.get("Access-Control-Allow-Origin") == origin, dict(response.headers)
    assert "origin" in vary(response)
    assert "Access-Control-Allow-Credentials" not in response.headers


def assert_not_readable(response) -> None:
    assert "Access-Control-Allow-Origin" not in response.headers, dict(response.headers)
    assert "origin" in vary(response)


async def preflight(client, path: str, origin: str, method: str = "POST", headers: str = "content-type"):
    return await client.options(
        path,
        headers={"Origin": origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers},
    )


async def consent_in_browser(portal, authorization_url: str) -> str:
    """The seller presses "Autorizar"; where the browser is sent (the redirect_uri with the code)."""
    from urllib.parse import parse_qs

    path = "/" + authorization_url.split("://", 1)[1].split("/", 1)[1]
    query = {k: v[0] for k, v in parse_qs(urlsplit(authorization_url).query).items()}
    response = await portal.submit("/oauth/autorizar", query | {"decisao": "autorizar"}, token_from=path)
    assert response.status == 303, await response.text()
    return response.headers["Location"]


@pytest.fixture
async def seller_portal(client):
    from tests.portal.conftest import Browser

    browser = Browser(client)
    await browser.seller_signup(nome="Loja do Navegador")
    return browser


async def test_a_public_apps_page_runs_the_whole_flow_with_fetch(
    client, oauth, integrator, seller_portal, pagina, retorno
):
    base = str(client.make_url("")).rstrip("/")
    app = await oauth.app(integrator, tipo="publico", redirect_uri=retorno)
    answers: list[httpx.Response] = []

    async def keep(response: httpx.Response) -> None:
        answers.append(response)

    # authlib's client, sending Origin as a browser does on every fetch of a page at pagina
    async with AsyncOAuth2Client(
        client_id=app.client_id,
        redirect_uri=retorno,
        scope="contas:ler produtos:ler",
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
        headers={"Origin": pagina},
        event_hooks={"response": [keep]},
    ) as navegador:
        # the metadata, then the preflight a JSON or form fetch with extra headers makes
        meta = await navegador.request("GET", f"{base}/.well-known/oauth-authorization-server", withhold_token=True)
        assert meta.status_code == 200
        for path in ("/oauth/token", "/oauth/revogar"):
            answer = await preflight(client, path, pagina)
            assert answer.status == 204, await answer.text()
            assert_readable_by(answer, pagina)
            assert listed(answer.headers["Access-Control-Allow-Methods"]) == {"post"}
            assert "content-type" in listed(answer.headers["Access-Control-Allow-Headers"])

        verifier = generate_token(64)
        url, state = navegador.create_authorization_url(f"{base}/oauth/autorizar", code_verifier=verifier)
        volta = await consent_in_browser(seller_portal, url)
        token = await navegador.fetch_token(
            f"{base}/oauth/token", authorization_response=volta, code_verifier=verifier, state=state
        )
        conta = await navegador.get(f"{base}/v1/contas/{token['conta_id']}")
        assert conta.status_code == 200 and conta.json()["data"]["nome"] == "Loja do Navegador"
        refused = await navegador.get(f"{base}/v1/saldo")  # an error is readable too: 403, integrator-only
        assert refused.status_code == 403
        await navegador.refresh_token(f"{base}/oauth/token", refresh_token=token["refresh_token"])
        revoked = await navegador.revoke_token(f"{base}/oauth/revogar", token=navegador.token["refresh_token"])
        assert revoked.status_code == 200
        after = await navegador.get(f"{base}/v1/contas")
        assert after.status_code == 401

    # every answer the page got, success or error, was readable by its origin and said Vary: Origin
    assert len(answers) == 7
    for answer in answers:
        assert answer.headers.get("access-control-allow-origin") == pagina, (answer.url, dict(answer.headers))
        assert "origin" in {v.strip().lower() for v in answer.headers["vary"].split(",")}
        assert "access-control-allow-credentials" not in answer.headers
    for answer in (conta, refused, after):  # /v1 exposes what an integrator reads
        assert listed(answer.headers["access-control-expose-headers"]) == EXPOSTOS
        assert answer.headers["x-request-id"].startswith("req_")


async def test_a_v1_preflight_needs_no_key_and_is_not_an_integrators_call(client, oauth, integrator, pagina, retorno):
    await oauth.app(integrator, tipo="publico", redirect_uri=retorno)
    # the preflight of a credit-spending POST; sent here with the key (a browser sends none)
    answer = await client.options(
        "/v1/galerias",
        headers={
            "Origin": pagina,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        }
        | integrator.headers,
    )
    assert answer.status == 204, await answer.text()
    assert_readable_by(answer, pagina)
    assert {"authorization", "content-type", "idempotency-key"} <= listed(
        answer.headers["Access-Control-Allow-Headers"]
    )
    assert {"get", "post", "put", "delete"} == listed(answer.headers["Access-Control-Allow-Methods"])
    assert int(answer.headers["Access-Control-Max-Age"]) > 0
    assert await answer.read() == b""
    assert "X-RateLimit-Limit" not in answer.headers  # not counted either
    # without any credential, as a browser sends it
    bare = await client.options(
        "/v1/contas/cta_x/produtos/SKU-1", headers={"Origin": pagina, "Access-Control-Request-Method": "PUT"}
    )
    assert bare.status == 204 and bare.headers["Access-Control-Allow-Origin"] == pagina
    # a call made after both is in the call log; the preflight never is
    later = await client.get("/v1/saldo", headers=integrator.headers | {"Origin": pagina})
    assert later.status == 200
    assert_readable_by(later, pagina)

    async def logged() -> None:
        found = await client.get(f"/v1/integracao/chamadas/{later.headers['X-Request-Id']}", headers=integrator.headers)
        assert found.status == 200

    await eventually(logged)
    missing = await client.get(f"/v1/integracao/chamadas/{answer.headers['X-Request-Id']}", headers=integrator.headers)
    assert missing.status == 404


async def test_other_origins_may_not_read_anything(client, oauth, integrator, pagina, retorno):
    # a confidential app's origin is a server's: no CORS for it
    await oauth.app(integrator, tipo="confidencial", redirect_uri="https://servidor.integradora.test/retorno")
    await oauth.app(integrator, tipo="publico", redirect_uri=retorno)
    for origin in (
        ESTRANHA,
        "https://servidor.integradora.test",
        "null",
        pagina + ":8443",
        "http://painel.integradora.test",
    ):
        # the browser's question is refused, with the reason for whoever reads the network panel
        answer = await preflight(client, "/v1/contas", origin, method="GET", headers="authorization")
        assert answer.status == 403
        assert_not_readable(answer)
        body = await answer.json()
        assert_error(body, "CORS_ORIGIN_NOT_ALLOWED")
        assert "app" in body["error"]["description"] and "público" in body["error"]["description"]
        for path in ("/oauth/token", "/oauth/revogar", "/.well-known/oauth-authorization-server"):
            refused = await preflight(client, path, origin)
            assert refused.status == 403, path
            assert_not_readable(refused)
            oauth_body = await refused.json()
            assert oauth_body["error"] == "invalid_request" and oauth_body["error_description"].isascii()
        # a request the browser sends without asking gets its answer, which the browser hides
        for response in (
            await client.get("/v1/contas", headers=integrator.headers | {"Origin": origin}),
            await client.get("/.well-known/oauth-authorization-server", headers={"Origin": origin}),
            await client.post("/oauth/token", data={"grant_type": "refresh_token"}, headers={"Origin": origin}),
        ):
            assert_not_readable(response)
            assert "Access-Control-Expose-Headers" not in response.headers


async def test_server_calls_without_origin_are_as_before(client, oauth, integrator, pagina, retorno):
    await oauth.app(integrator, tipo="publico", redirect_uri=retorno)
    response = await client.get("/v1/contas", headers=integrator.headers)
    assert response.status == 200
    assert_not_readable(response)  # a cache may still not mix it with a page's answer
    # OPTIONS that is no preflight is still a method these paths do not serve
    assert (await client.options("/oauth/token")).status == 405
    assert (await client.options("/.well-known/oauth-authorization-server")).status == 405
    assert (await client.options("/v1/contas", headers=integrator.headers)).status == 405


def _pessoa(integrador_id: str) -> Principal:
    return Principal(
        kind=CredentialKind.PORTAL,
        ambiente=Ambiente.TESTE,
        scopes=ROLE_SCOPES[Papel.DONO],
        integrador_id=integrador_id,
        ator_id="usr_cors",
    )


async def allowed(client, origin: str) -> bool:
    answer = await preflight(client, "/v1/contas", origin, method="GET", headers="authorization")
    assert answer.status in (204, 403)
    return answer.status == 204 and answer.headers.get("Access-Control-Allow-Origin") == origin


async def test_the_allowed_origins_follow_app_changes_at_once(client, factory, oauth, integrator, pagina, retorno):
    bus = factory.runtime.bus
    pessoa = _pessoa(integrator.id)
    assert not await allowed(client, pagina)  # read and kept before the app exists
    app = await oauth.app(integrator, tipo="publico", redirect_uri=retorno)
    assert await allowed(client, pagina)  # registered: allowed on the next request
    # its redirect URIs edited: the new origin in, the old one out
    novo = nova_origem()
    await apps.editar_app(pessoa, app.client_id, {"redirectUris": [f"{novo}/volta"]}, bus=bus)
    assert await allowed(client, novo)
    assert not await allowed(client, pagina)
    # disabled: out
    await apps.desativar_app(pessoa, app.client_id, bus=bus)
    assert not await allowed(client, novo)


async def test_the_origins_are_kept_in_memory_until_an_app_change_is_published(
    client, oauth, integrator, pagina, retorno
):
    app = await oauth.app(integrator, tipo="publico", redirect_uri=retorno)
    assert await allowed(client, pagina)
    # a change written behind the service's back is not read on each request ...
    await AppOAuth.filter(id=app.client_id).update(situacao="desativado")
    for _ in range(3):
        assert await allowed(client, pagina)
    # ... and the bus's message makes every process read it again
    await oauth.factory.runtime.bus.publish(CACHE_TOPIC)
    assert not await allowed(client, pagina)


async def test_an_app_change_reaches_another_web_process_at_once(
    client, aiohttp_client, settings, factory, oauth, integrator, pagina, retorno
):
    """Two web processes' worth of state on the same database and Redis: an origin allowed by both
    is refused by the other as soon as one disables the app."""
    from tests.harness import BACKEND
    from vitrine.app import create_app

    if BACKEND != "postgres":
        pytest.skip("one process only without Redis: the PostgreSQL + Redis leg runs this")
    other = await aiohttp_client(create_app(settings))
    app = await oauth.app(integrator, tipo="publico", redirect_uri=retorno)

    async def allowed_by_both() -> None:
        assert await allowed(client, pagina) and await allowed(other, pagina)

    await eventually(allowed_by_both, timeout=2.0, interval=0.02)
    await apps.desativar_app(_pessoa(integrator.id), app.client_id, bus=factory.runtime.bus)

    async def refused_by_the_other() -> None:
        assert not await allowed(other, pagina)

    await eventually(refused_by_the_other, timeout=2.0, interval=0.02)
