"""The facade's HTTP rules: request ids, body limits, JSON only, the error envelope, 500s."""

import pytest

from graphql_api.conta import service as contas
from tests.api.test_auth import assert_error


async def test_every_response_has_a_request_id_errors_included(client, integrator):
    seen = set()
    for method, path in (("GET", "/v1/saldo"), ("GET", "/v1/nao-existe"), ("DELETE", "/v1/saldo")):
        response = await client.request(method, path, headers=integrator.headers)
        request_id = response.headers["X-Request-Id"]
        assert request_id.startswith("req_") and request_id not in seen
        seen.add(request_id)


async def test_unknown_route_and_wrong_method(client, integrator):
    response = await client.get("/v1/nao-existe", headers=integrator.headers)
    assert response.status == 404
    assert_error(await response.json(), "ROUTE_NOT_FOUND")
    response = await client.delete("/v1/saldo", headers=integrator.headers)
    assert response.status == 405
    assert "GET" in response.headers["Allow"]
    assert_error(await response.json(), "METHOD_NOT_ALLOWED")


async def test_a_wrong_method_lists_the_methods_of_that_path_only(client, integrator):
    # /avisos/teste is not /avisos/{avisoId}: its 405 names its own method, OPTIONS included
    for method in ("GET", "OPTIONS", "DELETE"):
        response = await client.request(method, "/v1/avisos/teste", headers=integrator.headers)
        assert response.status == 405, method
        assert response.headers["Allow"] == "POST"
        assert_error(await response.json(), "METHOD_NOT_ALLOWED")


async def test_body_over_one_megabyte_is_413_and_nothing_is_created(client, integrator):
    big = {"codigoExterno": "grande", "nome": "x" * (1024 * 1024)}
    response = await client.post("/v1/contas", json=big, headers=integrator.headers)
    assert response.status == 413
    assert_error(await response.json(), "PAYLOAD_TOO_LARGE")
    listed = await (await client.get("/v1/contas?codigoExterno=grande", headers=integrator.headers)).json()
    assert listed["data"] == []


async def test_chunked_body_over_the_limit_is_413(client, integrator):
    async def chunks():
        for _ in range(20):
            yield b"x" * 65536  # 1.25 MB in total, no Content-Length

    response = await client.post(
        "/v1/contas", data=chunks(), headers={**integrator.headers, "Content-Type": "application/json"}
    )
    assert response.status == 413
    assert_error(await response.json(), "PAYLOAD_TOO_LARGE")


async def test_non_json_body_is_415(client, integrator):
    response = await client.post(
        "/v1/contas",
        data="codigoExterno=1",
        headers={**integrator.headers, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status == 415
    assert_error(await response.json(), "UNSUPPORTED_MEDIA_TYPE")


@pytest.mark.parametrize("raw", [b'{"codigoExterno": ', b"[1, 2]", b'"texto"', b"\xff\xfe"])
async def test_malformed_or_non_object_json_is_400(client, integrator, raw):
    response = await client.post(
        "/v1/contas", data=raw, headers={**integrator.headers, "Content-Type": "application/json"}
    )
    assert response.status == 400
    assert_error(await response.json(), "INVALID_JSON")


async def test_missing_body_where_one_is_needed_is_422(client, integrator):
    response = await client.post("/v1/contas", headers=integrator.headers)
    assert response.status == 422
    body = await response.json()
    assert_error(body, "VALIDATION_FAILED")
    assert body["error"]["fields"][0]["campo"] == "corpo"


async def test_unexpected_exception_becomes_a_500_envelope_and_is_logged(client, integrator, monkeypatch, caplog):
    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(contas, "listar_contas", broken)
    response = await client.get("/v1/contas", headers=integrator.headers)
    assert response.status == 500
    body = await response.json()
    assert_error(body, "INTERNAL_ERROR")
    assert "boom" not in str(body)  # internals never leak
    request_id = response.headers["X-Request-Id"]
    assert any(request_id in r.getMessage() and r.exc_info for r in caplog.records)


async def test_bodies_are_utf8_json_with_utc_millisecond_timestamps(client, integrator):
    # Contract: JSON bodies; <timestamp> is ISO 8601 UTC. Accents travel as UTF-8, not \u escapes.
    import re

    response = await client.post(
        "/v1/contas", json={"codigoExterno": "acentos", "nome": "Loja São João"}, headers=integrator.headers
    )
    assert response.status == 201
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    raw = await response.read()
    assert "Loja São João".encode() in raw and b"\\u" not in raw
    conta = (await response.json())["data"]
    for campo in ("criadoEm", "atualizadoEm"):
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", conta[campo]), conta[campo]
    error = await client.get("/v1/contas/cta_nao_existe", headers=integrator.headers)
    assert error.status == 404 and error.headers["Content-Type"] == "application/json; charset=utf-8"
