"""Nobody who lacks an app's credentials can jam its token endpoint (docs/limites.md, "Endpoint de
token"): authentication failures block the app only for the address they come from, the app's
60 calls a minute are spent only by calls that authenticate, and unauthenticated junk is limited
per address. The attacker calls from another loopback address (127.0.0.2); the app, through
authlib's client as an integrator would, from its own (127.0.0.1)."""

import itertools
from dataclasses import replace

import aiohttp
import httpx2
import pytest
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.httpx_client import AsyncOAuth2Client

from tests.factories import auth
from vitrine.settings import Settings

_OUTROS_ENDERECOS = itertools.count(2)
JUNK_POR_MINUTO = 30


@pytest.fixture
def settings() -> Settings:
    return Settings(call_log_process=False, rate_limit_unauthenticated_per_ip=JUNK_POR_MINUTO)


@pytest.fixture
def atacante() -> str:
    """Another loopback address (127.0.0.2 first), a new one for each test: the per-address
    counters (in Redis, on the PostgreSQL leg) are the run's, and tests must not share them."""
    n = next(_OUTROS_ENDERECOS)
    return f"127.0.{n // 250}.{n % 250 + 2}" if n >= 250 else f"127.0.0.{n}"


@pytest.fixture
async def de_outro_endereco(client, atacante):
    """An HTTP session to the same server whose connections leave from `atacante`."""
    async with aiohttp.ClientSession(
        base_url=str(client.make_url("")), connector=aiohttp.TCPConnector(local_addr=(atacante, 0))
    ) as session:
        yield session


def basic(client_id: str, segredo: str) -> dict[str, str]:
    return {"Authorization": aiohttp.encode_basic_auth(client_id, segredo)}


def cliente_authlib(client, app, *, endereco: str = "127.0.0.1") -> AsyncOAuth2Client:
    """The integrator's OAuth client, its connections leaving from `endereco`."""
    return AsyncOAuth2Client(
        client_id=app.client_id,
        client_secret=app.client_secret,
        token_endpoint_auth_method="client_secret_basic" if app.client_secret else "none",
        transport=httpx2.AsyncHTTPTransport(local_address=endereco),
    )


async def test_wrong_secrets_from_another_address_never_lock_the_app_out(
    client, oauth, integrator, atacante, de_outro_endereco
):
    # given an app with a seller's tokens
    app = await oauth.app(integrator)
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    token_url = str(client.make_url("/oauth/token"))

    # when someone else sends 25 wrong secrets from 127.0.0.2
    erros = []
    impostor = replace(app, client_secret="cs_test_" + "x" * 40)
    async with cliente_authlib(client, impostor, endereco=atacante) as de_la:
        for _ in range(25):
            with pytest.raises(OAuthError) as recusa:
                await de_la.refresh_token(token_url, refresh_token=tokens["refresh_token"])
            erros.append(recusa.value.error)

    # then the first 20 are invalid_client, and from then on that address is blocked for the app
    assert erros == ["invalid_client"] * 20 + ["temporarily_unavailable"] * 5
    bloqueada = await de_outro_endereco.post(
        "/oauth/token",
        data={"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]},
        headers=basic(app.client_id, app.client_secret),
    )
    assert bloqueada.status == 429 and 500 < int(bloqueada.headers["Retry-After"]) <= 600

    # and the app, from its own address, refreshes as if nothing happened
    async with cliente_authlib(client, app) as integrador:
        renovado = await integrador.refresh_token(token_url, refresh_token=tokens["refresh_token"])
    assert renovado["access_token"].startswith("oat_test_")
    assert (await client.get("/v1/contas", headers=auth(renovado["access_token"]))).status == 200


async def test_junk_naming_a_public_app_does_not_spend_its_quota(client, oauth, integrator, de_outro_endereco, relogio):
    app = await oauth.app(integrator, tipo="publico")
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    relogio.no_comeco_de_um_minuto()

    # 61 calls naming the app's client_id with made-up refresh tokens, from another address
    statuses = set()
    for _ in range(61):
        junk = {"grant_type": "refresh_token", "refresh_token": "ort_inventado", "client_id": app.client_id}
        statuses.add((await de_outro_endereco.post("/oauth/token", data=junk)).status)
    assert statuses == {400, 429}

    # the app's own call still goes through: the junk authenticated nothing, so it spent nothing
    async with cliente_authlib(client, app) as integrador:
        renovado = await integrador.refresh_token(
            str(client.make_url("/oauth/token")), refresh_token=tokens["refresh_token"]
        )
    assert renovado["refresh_token"] != tokens["refresh_token"]


async def test_only_calls_that_authenticate_spend_the_apps_sixty_a_minute(client, oauth, integrator, relogio):
    app = await oauth.app(integrator)
    relogio.no_comeco_de_um_minuto()
    autenticada = {"grant_type": "refresh_token", "refresh_token": "ort_inventado"}
    statuses = [(await client.post("/oauth/token", data=autenticada, **oauth.basic(app))).status for _ in range(60)]
    assert set(statuses) == {400}  # invalid_grant: authenticated, so counted
    resposta = await client.post("/oauth/token", data=autenticada, **oauth.basic(app))
    assert resposta.status == 429, await resposta.text()
    corpo = await resposta.json()
    assert corpo["error"] == "temporarily_unavailable" and 1 <= int(resposta.headers["Retry-After"]) <= 60

    relogio.avancar(seconds=60)  # the next minute: the quota is back
    assert (await client.post("/oauth/token", data=autenticada, **oauth.basic(app))).status == 400


async def test_unauthenticated_junk_is_limited_per_address(client, oauth, integrator, de_outro_endereco, relogio):
    app = await oauth.app(integrator)
    relogio.no_comeco_de_um_minuto()
    junk = {"grant_type": "refresh_token", "refresh_token": "ort_x", "client_id": "app_" + "0" * 26}
    statuses = [(await de_outro_endereco.post("/oauth/token", data=junk)).status for _ in range(JUNK_POR_MINUTO)]
    assert set(statuses) == {401}  # unknown client
    passou = await de_outro_endereco.post("/oauth/token", data=junk)
    assert passou.status == 429 and (await passou.json())["error"] == "temporarily_unavailable"
    assert int(passou.headers["Retry-After"]) >= 1

    # the address's junk limit refuses junk only: a call that authenticates from there still runs,
    # and other addresses are not touched at all
    certa = {"grant_type": "refresh_token", "refresh_token": "ort_inventado"}
    mesma = await de_outro_endereco.post("/oauth/token", data=certa, headers=basic(app.client_id, app.client_secret))
    assert mesma.status == 400 and (await mesma.json())["error"] == "invalid_grant"
    assert (await client.post("/oauth/token", data=junk)).status == 401


async def test_the_block_ends_after_ten_minutes(client, oauth, integrator, de_outro_endereco, relogio):
    app = await oauth.app(integrator)
    errada = {"grant_type": "refresh_token", "refresh_token": "ort_x"}
    for _ in range(20):
        await de_outro_endereco.post("/oauth/token", data=errada, headers=basic(app.client_id, "errado"))
    certa = basic(app.client_id, app.client_secret)
    assert (await de_outro_endereco.post("/oauth/token", data=errada, headers=certa)).status == 429
    relogio.avancar(minutes=10, seconds=1)
    depois = await de_outro_endereco.post("/oauth/token", data=errada, headers=certa)
    assert depois.status == 400 and (await depois.json())["error"] == "invalid_grant"


async def test_revocation_junk_from_another_address_spares_the_app(client, oauth, integrator, de_outro_endereco):
    app = await oauth.app(integrator, tipo="publico")
    tokens = await oauth.tokens(app, await oauth.consentir(app))
    for _ in range(25):
        resposta = await de_outro_endereco.post(
            "/oauth/revogar", data={"token": "ort_nada", "client_id": app.client_id}
        )
        assert resposta.status in (200, 429)  # RFC 7009: an unknown token is not an error
    revogado = await client.post("/oauth/revogar", data={"token": tokens["refresh_token"], "client_id": app.client_id})
    assert revogado.status == 200
    assert (await client.get("/v1/contas", headers=auth(tokens["access_token"]))).status == 401


class TestBehindAProxy:
    """VITRINE_TRUSTED_PROXIES: the source is the client X-Forwarded-For names, only when the
    connection comes from a trusted proxy."""

    @pytest.fixture
    def settings(self) -> Settings:
        return Settings(call_log_process=False, trusted_proxies="127.0.0.1")

    async def test_failures_count_against_the_forwarded_client(self, client, oauth, integrator):
        app = await oauth.app(integrator)
        errada = {"grant_type": "refresh_token", "refresh_token": "ort_x"}
        de_quem = {"X-Forwarded-For": "203.0.113.9"}
        for _ in range(20):
            await client.post("/oauth/token", data=errada, headers=de_quem | basic(app.client_id, "x"))
        certa = basic(app.client_id, app.client_secret)
        assert (await client.post("/oauth/token", data=errada, headers=de_quem | certa)).status == 429
        outro = {"X-Forwarded-For": "198.51.100.7"}
        assert (await client.post("/oauth/token", data=errada, headers=outro | certa)).status == 400

    async def test_an_untrusted_connection_cannot_pick_its_address(self, client, oauth, integrator, de_outro_endereco):
        app = await oauth.app(integrator)
        errada = {"grant_type": "refresh_token", "refresh_token": "ort_x"}
        for n in range(20):  # 127.0.0.2 is no proxy: its X-Forwarded-For is ignored
            forjado = {"X-Forwarded-For": f"192.0.2.{n}"}
            await de_outro_endereco.post("/oauth/token", data=errada, headers=forjado | basic(app.client_id, "x"))
        certa = basic(app.client_id, app.client_secret)
        resposta = await de_outro_endereco.post("/oauth/token", data=errada, headers=certa)
        assert resposta.status == 429


def test_forwarded_for_is_read_from_the_right_up_to_the_first_untrusted_hop():
    from vitrine.infra.client_address import client_address, parse_networks

    proxies = parse_networks("10.0.0.0/8, 127.0.0.1")
    assert client_address("127.0.0.1", ["203.0.113.9"], proxies) == "203.0.113.9"
    assert client_address("127.0.0.1", ["1.1.1.1, 203.0.113.9, 10.1.2.3"], proxies) == "203.0.113.9"
    assert client_address("198.51.100.1", ["203.0.113.9"], proxies) == "198.51.100.1"  # not from a proxy
    assert client_address("127.0.0.1", ["lixo, 10.0.0.5"], proxies) == "10.0.0.5"  # garbage stops the walk
    assert client_address("127.0.0.1", [], proxies) == "127.0.0.1"
    assert client_address("127.0.0.1", ["10.0.0.4, 10.0.0.5"], proxies) == "10.0.0.4"
    with pytest.raises(ValueError, match="nada"):
        parse_networks("nada")
