"""Per-minute limits per key and per integrator, their headers, and the forced 429 of test keys."""

import time

from graphql_api.core.principal import Ambiente
from tests.api.test_auth import assert_error
from tests.factories import auth


async def test_rate_limit_headers_on_every_response(client, integrator):
    for path in ("/v1/saldo", "/v1/nao-existe"):
        response = await client.get(path, headers=integrator.headers)
        limit = int(response.headers["X-RateLimit-Limit"])
        remaining = int(response.headers["X-RateLimit-Remaining"])
        reset = int(response.headers["X-RateLimit-Reset"])
        assert limit == 300 and 0 <= remaining < limit
        assert time.time() < reset <= time.time() + 61


async def test_past_the_key_limit_answers_429_and_does_not_process(client, factory):
    integrator = await factory.integrator(limite_chave=3, limite_integrador=100)
    for i in range(3):
        response = await client.post("/v1/contas", json={"codigoExterno": f"c{i}", "nome": "n"}, headers=integrator.headers)
        assert response.status == 201
    response = await client.post("/v1/contas", json={"codigoExterno": "c-extra", "nome": "n"}, headers=integrator.headers)
    assert response.status == 429
    assert_error(await response.json(), "TOO_MANY_REQUESTS")
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 60
    assert response.headers["X-RateLimit-Remaining"] == "0"
    # the refused request created nothing: another key sees only the three accounts
    other = await factory.key(integrator)
    listed = await (await client.get("/v1/contas", headers=auth(other))).json()
    assert sorted(c["codigoExterno"] for c in listed["data"]) == ["c0", "c1", "c2"]


async def test_integrator_limit_spans_its_keys(client, factory):
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
