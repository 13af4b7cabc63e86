"""Idempotency-Key as the contract's table says, on POST /contas (where it is optional)."""

import asyncio

import pytest

from graphql_api.conta import service as contas
from graphql_api.idempotencia import service as idempotency_store
from graphql_api.idempotencia.models import RegistroIdempotencia
from tests.api.test_auth import assert_error
from tests.factories import auth


def with_key(integrator, key: str) -> dict:
    return auth(integrator.key, **{"Idempotency-Key": key})


async def count_accounts(client, integrator) -> int:
    return len((await (await client.get("/v1/contas?limite=100", headers=integrator.headers)).json())["data"])


async def test_same_key_same_body_replays_without_creating_again(client, integrator):
    body = {"codigoExterno": "idem-1", "nome": "Loja"}
    first = await client.post("/v1/contas", json=body, headers=with_key(integrator, "chave-idem-0001"))
    assert first.status == 201
    assert "Idempotent-Replayed" not in first.headers
    again = await client.post(
        "/v1/contas", json={"nome": "Loja", "codigoExterno": "idem-1"}, headers=with_key(integrator, "chave-idem-0001")
    )
    assert again.status == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert await again.json() == await first.json()
    assert again.headers["X-Request-Id"] != first.headers["X-Request-Id"]
    assert await count_accounts(client, integrator) == 1


async def test_same_key_different_body_is_409(client, integrator):
    await client.post(
        "/v1/contas", json={"codigoExterno": "a", "nome": "A"}, headers=with_key(integrator, "chave-idem-0002")
    )
    response = await client.post(
        "/v1/contas", json={"codigoExterno": "b", "nome": "B"}, headers=with_key(integrator, "chave-idem-0002")
    )
    assert response.status == 409
    assert_error(await response.json(), "IDEMPOTENCY_KEY_REUSED")
    assert await count_accounts(client, integrator) == 1


@pytest.mark.parametrize("bad", ["curta", "x" * 121, "com espaço!", "acentuação-1"])
async def test_malformed_key_is_400_with_a_field_error(client, integrator, bad):
    response = await client.post(
        "/v1/contas", json={"codigoExterno": "z", "nome": "Z"}, headers=with_key(integrator, bad)
    )
    assert response.status == 400
    body = await response.json()
    assert_error(body, "IDEMPOTENCY_KEY_INVALID")
    assert body["error"]["fields"][0]["campo"] == "Idempotency-Key"


async def test_a_second_request_while_the_first_runs_is_409_in_progress(client, integrator, monkeypatch):
    release = asyncio.Event()
    original = contas.criar_conta

    async def slow(principal, dados):
        await release.wait()
        return await original(principal, dados)

    monkeypatch.setattr(contas, "criar_conta", slow)
    body = {"codigoExterno": "lenta", "nome": "Lenta"}
    first = asyncio.create_task(client.post("/v1/contas", json=body, headers=with_key(integrator, "chave-lenta-01")))
    await asyncio.sleep(0.2)
    second = await client.post("/v1/contas", json=body, headers=with_key(integrator, "chave-lenta-01"))
    assert second.status == 409
    assert_error(await second.json(), "IDEMPOTENCY_KEY_IN_PROGRESS")
    release.set()
    assert (await first).status == 201
    third = await client.post("/v1/contas", json=body, headers=with_key(integrator, "chave-lenta-01"))
    assert third.status == 201 and third.headers["Idempotent-Replayed"] == "true"
    assert await count_accounts(client, integrator) == 1


async def test_failed_request_is_not_stored_and_can_be_retried(client, integrator):
    key = "chave-falha-01"
    response = await client.post(
        "/v1/contas", json={"codigoExterno": "", "nome": "X"}, headers=with_key(integrator, key)
    )
    assert response.status == 422
    response = await client.post(
        "/v1/contas", json={"codigoExterno": "", "nome": "X"}, headers=with_key(integrator, key)
    )
    assert response.status == 422 and "Idempotent-Replayed" not in response.headers


async def test_keys_are_per_integrator(client, factory, integrator):
    other = await factory.integrator()
    body = {"codigoExterno": "mesmo", "nome": "Loja"}
    a = await client.post("/v1/contas", json=body, headers=with_key(integrator, "chave-compartilhada"))
    b = await client.post("/v1/contas", json=body, headers=with_key(other, "chave-compartilhada"))
    assert a.status == b.status == 201
    assert "Idempotent-Replayed" not in b.headers
    assert (await a.json())["data"]["id"] != (await b.json())["data"]["id"]


async def test_keys_expire_after_seven_days(client, integrator):
    body = {"codigoExterno": "velha", "nome": "Velha"}
    await client.post("/v1/contas", json=body, headers=with_key(integrator, "chave-velha-01"))
    record = await RegistroIdempotencia.get(integrador_id=integrator.id, chave="chave-velha-01")
    record.criado_em = record.criado_em - idempotency_store.KEY_LIFETIME - idempotency_store.PRAZO_DA_RESERVA
    await record.save()
    # after 7 days the key is new again: the request runs (and meets the existing account)
    response = await client.post("/v1/contas", json=body, headers=with_key(integrator, "chave-velha-01"))
    assert response.status == 409
    assert_error(await response.json(), "ACCOUNT_ALREADY_EXISTS")
    assert await idempotency_store.expurgar() >= 0


async def test_the_same_key_with_another_query_string_is_409_not_a_replay(client, factory, integrator):
    # given a check asked for with a key
    conta = await factory.conta(integrator)
    produto = await factory.produto(integrator, conta)
    path = f"/v1/produtos/{produto['id']}/conferencia"
    first = await client.post(path, headers=with_key(integrator, "conferir-0001"))
    assert first.status in (200, 202), await first.text()
    # when the forced re-check goes with the same key, then it is another request: 409, not the
    # first answer replayed (which would silently skip the re-check)
    forced = await client.post(f"{path}?refazer=true", headers=with_key(integrator, "conferir-0001"))
    assert forced.status == 409, await forced.text()
    assert_error(await forced.json(), "IDEMPOTENCY_KEY_REUSED")
    # and the same query, however encoded, is the same request
    again = await client.post(path, headers=with_key(integrator, "conferir-0001"))
    assert again.headers.get("Idempotent-Replayed") == "true"
    forced = await client.post(f"{path}?refazer=true", headers=with_key(integrator, "conferir-0002"))
    assert forced.status in (200, 202), await forced.text()
    encoded = await client.post(f"{path}?refazer=tru%65", headers=with_key(integrator, "conferir-0002"))
    assert encoded.status == forced.status and encoded.headers.get("Idempotent-Replayed") == "true"


def test_the_fingerprint_takes_the_query_in_any_order_and_the_body_in_any_key_order():
    from aiohttp.test_utils import make_mocked_request

    from rest_v1.keys import JSON_BODY
    from rest_v1.middlewares.idempotency import _fingerprint

    def fingerprint(target: str, body: dict | None = None) -> str:
        request = make_mocked_request("POST", target)
        if body is not None:
            request[JSON_BODY] = body
        return _fingerprint(request)

    assert fingerprint("/v1/x?a=1&b=2") == fingerprint("/v1/x?b=2&a=1")
    assert fingerprint("/v1/x?a=1&a=2") == fingerprint("/v1/x?a=2&a=1")
    assert fingerprint("/v1/x?a=1") != fingerprint("/v1/x?a=2") != fingerprint("/v1/x")
    assert fingerprint("/v1/x", {"a": 1, "b": 2}) == fingerprint("/v1/x", {"b": 2, "a": 1})
    assert fingerprint("/v1/x?a=1", {"a": 1}) != fingerprint("/v1/x?a=1", {"a": 2})
