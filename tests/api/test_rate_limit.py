"""Per-minute limits per key and per integrator, their headers, and the forced 429 of test keys."""

import time

import pytest

from graphql_api.core.principal import Ambiente
from tests.api.test_auth import assert_error
from tests.factories import auth
from vitrine.settings import Settings

REFUSALS_PER_IP = 3


@pytest.fixture
def settings() -> Settings:
    return Settings(rate_limit_unauthenticated_per_ip=REFUSALS_PER_IP)


async def test_rate_limit_headers_on_every_response(client, integrator):
    for path in ("/v1/saldo", "/v1/nao-existe"):
        response = await client.get(path, headers=integrator.headers)
        limit = int(response.headers["X-RateLimit-Limit"])
        remaining = int(response.headers["X-RateLimit-Remaining"])
        reset = int(response.headers["X-RateLimit-Reset"])
        assert limit == 300 and 0 <= remaining < limit
        assert time.time() < reset <= time.time() + 61


async def test_past_the_key_limit_answers_429_and_does_not_process(client, factory, relogio):
    relogio.no_comeco_de_um_minuto()
    integrator = await factory.integrator(limite_chave=3, limite_integrador=100)
    for i in range(3):
        response = await client.post(
            "/v1/contas", json={"codigoExterno": f"c{i}", "nome": "n"}, headers=integrator.headers
        )
        assert response.status == 201
    response = await client.post(
        "/v1/contas", json={"codigoExterno": "c-extra", "nome": "n"}, headers=integrator.headers
    )
    assert response.status == 429
    assert_error(await response.json(), "TOO_MANY_REQUESTS")
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 60
    assert response.headers["X-RateLimit-Remaining"] == "0"
    # the refused request created nothing: another key sees only the three accounts
    other = await factory.key(integrator)
    listed = await (await client.get("/v1/contas", headers=auth(other))).json()
    assert sorted(c["codigoExterno"] for c in listed["data"]) == ["c0", "c1", "c2"]


async def test_integrator_limit_spans_its_keys(client, factory, relogio):
    relogio.no_comeco_de_um_minuto()
    integrator = await factory.integrator(limite_chave=100, limite_integrador=4)
    second = await factory.key(integrator)
    statuses = []
    for i in range(6):
        key = integrator.key if i % 2 == 0 else second
        statuses.append((await client.get("/v1/saldo", headers=auth(key))).status)
    assert statuses == [200, 200, 200, 200, 429, 429]


async def test_forced_429_for_test_keys(client, integrator):
    response = await client.get("/v1/saldo", headers=auth(integrator.key, **{"X-Vitrine-Teste": "forcar-429"}))
    assert response.status == 429
    assert response.headers["Retry-After"] == "5"
    assert_error(await response.json(), "TOO_MANY_REQUESTS")
    # and the next call without the header works
    assert (await client.get("/v1/saldo", headers=integrator.headers)).status == 200


async def test_forced_429_header_is_ignored_for_live_keys(client, factory, integrator):
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    response = await client.get("/v1/saldo", headers=auth(live, **{"X-Vitrine-Teste": "forcar-429"}))
    assert response.status == 200
    assert (await response.json())["data"]["ambiente"] == "producao"


async def test_refused_credentials_carry_the_headers_and_soon_meet_a_429_without_slowing_valid_keys(
    client, integrator, relogio
):
    relogio.no_comeco_de_um_minuto()
    answers = []
    for _ in range(REFUSALS_PER_IP + 2):
        response = await client.get("/v1/saldo", headers={"Authorization": "Bearer sk_test_aaaaaaaaaaaa_" + "b" * 40})
        answers.append((response.status, response.headers, await response.json()))
    statuses = [status for status, _, _ in answers]
    assert statuses[0] in (401, 429) and 429 in statuses
    # other tests' refusals from 127.0.0.1 may share the window (Redis): never more than the limit
    assert statuses.index(429) <= REFUSALS_PER_IP
    for status, headers, body in answers:
        assert headers["X-RateLimit-Limit"] == str(REFUSALS_PER_IP) and "X-RateLimit-Reset" in headers
        if status == 401:
            assert_error(body, "UNAUTHORIZED")
        else:
            assert status == 429 and headers["X-RateLimit-Remaining"] == "0"
            assert 1 <= int(headers["Retry-After"]) <= 60
            assert_error(body, "TOO_MANY_REQUESTS")
    # a missing header counts too: in the same window it is refused like the others
    response = await client.get("/v1/saldo")
    assert response.status == 429
    # a valid key from the same address is judged by its own limits only
    response = await client.get("/v1/saldo", headers=integrator.headers)
    assert response.status == 200 and response.headers["X-RateLimit-Limit"] == "300"
