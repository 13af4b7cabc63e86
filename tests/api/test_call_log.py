"""The call log: every call recorded with masked bodies, searchable, with cause and fix."""

import json
import logging
from datetime import UTC, datetime, timedelta

import pytest

from graphql_api.chamada import service as chamadas
from graphql_api.chamada.models import Chamada
from tests.api.test_auth import assert_error
from tests.factories import auth, eventually


async def detail(client, integrator, request_id, *, timeout: float = 30.0):
    async def check():
        response = await client.get(f"/v1/integracao/chamadas/{request_id}", headers=integrator.headers)
        assert response.status == 200, await response.text()
        return (await response.json())["data"]

    return await eventually(check, timeout=timeout)


async def listing(client, integrator, query=""):
    response = await client.get(f"/v1/integracao/chamadas{query}", headers=integrator.headers)
    assert response.status == 200, await response.text()
    return await response.json()


async def test_a_call_is_recorded_with_its_metadata(client, factory, integrator):
    conta = await factory.conta(integrator)
    response = await client.get(f"/v1/contas/{conta['id']}", headers=integrator.headers)
    call = await detail(client, integrator, response.headers["X-Request-Id"])
    assert call["metodo"] == "GET" and call["endpoint"] == "/contas/{contaId}"
    assert call["caminho"] == f"/v1/contas/{conta['id']}" and call["status"] == 200
    assert call["contaId"] == conta["id"] and call["ambiente"] == "teste"
    assert call["chave"] == integrator.key.split("_")[2] and call["duracaoMs"] >= 0
    assert call["corpoRecebido"]["data"]["id"] == conta["id"]
    assert call["codigoErro"] is None and call["causa"] is None


async def test_error_calls_carry_cause_fix_and_documentation(client, integrator):
    response = await client.post("/v1/contas", json={"nome": ""}, headers=integrator.headers)
    call = await detail(client, integrator, response.headers["X-Request-Id"])
    assert call["status"] == 422 and call["codigoErro"] == "VALIDATION_FAILED"
    assert call["mensagem"] and call["causa"] and call["comoCorrigir"]
    assert call["documentacao"].endswith("/docs/erros#VALIDATION_FAILED")
    assert call["corpoEnviado"] == {"nome": ""}


async def test_refused_credentials_are_logged_for_the_integrator_the_key_names(client, integrator):
    wrong = integrator.key[:-3] + "abc"
    response = await client.get("/v1/saldo", headers=auth(wrong))
    call = await detail(client, integrator, response.headers["X-Request-Id"])
    assert call["status"] == 401 and call["codigoErro"] == "UNAUTHORIZED"


async def test_bodies_and_headers_are_masked(client, factory, integrator):
    ficha = {
        "nome": "Produto",
        "descricao": "Contato: joana.silva@loja.com.br, (11) 98765-4321, CPF 123.456.789-09, "
        "CNPJ 11.222.333/0001-81, chave sk_test_ABCDEFGHIJKL_" + "s" * 40 + " e whsec_c2VncmVkb3NlY3JldG8=",
        "gtin": "7891234567895",
    }
    conta = await factory.conta(integrator)
    response = await client.put(
        f"/v1/contas/{conta['id']}/produtos/SKU-PII",
        json=ficha,
        headers=auth(integrator.key, **{"Idempotency-Key": "pedido-1234567890"}),
    )
    call = await detail(client, integrator, response.headers["X-Request-Id"])
    sent = json.dumps(call["corpoEnviado"], ensure_ascii=False)
    for secret in (
        "joana.silva",
        "98765-4321",
        "123.456.789-09",
        "11.222.333/0001-81",
        "s" * 40,
        "c2VncmVkb3NlY3JldG8",
    ):
        assert secret not in sent, secret
    assert "j***@loja.com.br" in sent and "sk_test_ABCDEFGHIJKL_****" in sent
    assert call["corpoEnviado"]["gtin"] == "7891234567895"  # an EAN is not personal data
    headers = call["cabecalhosEnviados"]
    assert integrator.key not in json.dumps(headers)
    assert headers["Authorization"].endswith("_****")
    assert headers["Idempotency-Key"] == "pedi****7890"


async def test_phones_in_a_ficha_are_masked_in_the_call_detail(client, factory, integrator):
    phones = ["11912345678", "1133334444", "0800 123 4567", "+1 415 555 2671", "+44 20 7946 0958", "+14155552671"]
    ficha = {"nome": "Produto", "descricao": "SAC: " + "; ".join(phones), "gtin": "7891234567895"}
    conta = await factory.conta(integrator)
    response = await client.put(f"/v1/contas/{conta['id']}/produtos/SKU-FONE", json=ficha, headers=integrator.headers)
    call = await detail(client, integrator, response.headers["X-Request-Id"])
    assert call["corpoEnviado"]["descricao"] == "SAC: " + "; ".join(["****"] * len(phones))
    assert call["corpoEnviado"]["gtin"] == "7891234567895"


async def test_bodies_are_cut_at_64_kb(client, factory, integrator):
    conta = await factory.conta(integrator)
    ficha = {
        "nome": "Grande",
        "atributos": [{"nome": f"a{i}", "valor": "v" * 490} for i in range(100)],
        "descricao": "d" * 5000,
        "descricaoComplementar": "c" * 5000,
        "perguntas": [{"pergunta": "p" * 500, "resposta": "r" * 2000} for _ in range(50)],
    }
    response = await client.put(f"/v1/contas/{conta['id']}/produtos/SKU-BIG", json=ficha, headers=integrator.headers)
    assert response.status == 200
    call = await detail(client, integrator, response.headers["X-Request-Id"])
    assert call["corpoEnviadoCortado"] is True
    assert len(json.dumps(call["corpoEnviado"]).encode()) <= 64 * 1024 + 2048


async def test_every_filter_of_the_listing(client, factory, integrator):
    conta = await factory.conta(integrator)
    other_key = await factory.key(integrator)
    await client.get("/v1/saldo", headers=integrator.headers)
    await client.post("/v1/contas", json={}, headers=integrator.headers)  # 422
    await client.get(f"/v1/contas/{conta['id']}", headers=integrator.headers)
    await client.get("/v1/contas", headers=auth(other_key))
    last = await client.get("/v1/nao-existe", headers=integrator.headers)  # 404
    await detail(client, integrator, last.headers["X-Request-Id"])

    async def endpoints(query):
        return [c["endpoint"] for c in (await listing(client, integrator, query))["data"]]

    assert await endpoints("?status=422") == ["/contas"]
    four = (await listing(client, integrator, "?status=4xx"))["data"]
    assert {"/contas", "/nao-existe"} <= {c["endpoint"] for c in four}
    assert all(400 <= c["status"] < 500 for c in four)
    assert await endpoints("?status=2xx&metodo=get&endpoint=/saldo") == ["/saldo"]
    assert await endpoints("?codigoErro=ROUTE_NOT_FOUND") == ["/nao-existe"]
    assert await endpoints(f"?contaId={conta['id']}") == ["/contas/{contaId}"]
    assert await endpoints(f"?chave={other_key.split('_')[2]}") == ["/contas"]
    assert await endpoints(f"?chave=sk_test_{other_key.split('_')[2]}") == ["/contas"]
    assert await endpoints("?endpoint=/v1/contas/{contaId}") == ["/contas/{contaId}"]
    assert await endpoints("?ambiente=producao") == []
    today = datetime.now(UTC).date()
    assert len(await endpoints(f"?de={today}&ate={today}")) >= 6
    assert await endpoints(f"?ate={today - timedelta(days=1)}") == []
    # dates read as id ranges hold at the calendar's ends too
    assert len(await endpoints("?de=0001-01-01&ate=9999-12-31")) >= 6
    assert await endpoints("?ate=1969-12-31") == []
    for bad in ("status=abc", "de=ontem", "chave=sk_x", "ambiente=qa", "filtro=1"):
        response = await client.get(f"/v1/integracao/chamadas?{bad}", headers=integrator.headers)
        assert response.status == 422, bad
        assert_error(await response.json(), "VALIDATION_FAILED")


async def test_listing_paginates_and_omits_bodies(client, integrator):
    ids = []
    for _ in range(5):
        ids.append((await client.get("/v1/saldo", headers=integrator.headers)).headers["X-Request-Id"])
    await detail(client, integrator, ids[-1])
    first = await listing(client, integrator, "?limite=3&endpoint=/saldo")
    assert [c["requestId"] for c in first["data"]] == ids[::-1][:3]
    assert "corpoEnviado" not in first["data"][0]
    rest = await listing(client, integrator, f"?limite=3&endpoint=/saldo&cursor={first['paginacao']['proximoCursor']}")
    assert [c["requestId"] for c in rest["data"]] == ids[::-1][3:]
    assert rest["paginacao"]["proximoCursor"] is None


async def test_log_of_another_integrator_or_environment_is_invisible(client, factory, integrator):
    response = await client.get("/v1/saldo", headers=integrator.headers)
    request_id = response.headers["X-Request-Id"]
    await detail(client, integrator, request_id)
    stranger = await factory.integrator()
    assert (await client.get(f"/v1/integracao/chamadas/{request_id}", headers=stranger.headers)).status == 404
    assert (await listing(client, stranger))["data"] == [] or all(
        c["requestId"] != request_id for c in (await listing(client, stranger))["data"]
    )


async def test_recent_errors_are_grouped_by_type(client, integrator):
    for _ in range(3):
        await client.post("/v1/contas", json={}, headers=integrator.headers)
    last = await client.get("/v1/nao-existe", headers=integrator.headers)
    await detail(client, integrator, last.headers["X-Request-Id"])
    body = await (await client.get("/v1/integracao/erros", headers=integrator.headers)).json()
    by_type = {e["tipo"]: e for e in body["data"]}
    assert by_type["VALIDATION_FAILED"]["total"] == 3 and by_type["VALIDATION_FAILED"]["status"] == 422
    assert by_type["ROUTE_NOT_FOUND"]["ultimoRequestId"] == last.headers["X-Request-Id"]
    for entry in by_type.values():
        assert entry["causa"] and entry["comoCorrigir"] and entry["documentacao"].endswith(f"#{entry['tipo']}")


async def test_retention_purges_bodies_after_30_days_and_records_after_90(client, integrator):
    ids = [
        (await client.post("/v1/contas", json={"nome": ""}, headers=integrator.headers)).headers["X-Request-Id"]
        for _ in range(3)
    ]
    await detail(client, integrator, ids[-1])
    now = datetime.now(UTC)
    await Chamada.filter(id=ids[0]).update(criado_em=now - timedelta(days=31))
    await Chamada.filter(id=ids[1]).update(criado_em=now - timedelta(days=91))
    await chamadas.expurgar(now)
    old = await detail(client, integrator, ids[0])
    assert old["corpoEnviado"] is None and old["corpoRecebido"] is None and old["corposExpurgados"] is True
    assert (await client.get(f"/v1/integracao/chamadas/{ids[1]}", headers=integrator.headers)).status == 404
    recent = await detail(client, integrator, ids[2])
    assert recent["corpoEnviado"] == {"nome": ""}


async def test_a_batch_written_again_after_a_lost_acknowledgement_is_stored_once(client, integrator):
    """A flush that failed after the database had the rows is retried: nothing is lost, nothing
    doubles (PostgreSQL writes batches with COPY, falling back to INSERT ... ON CONFLICT)."""
    from graphql_api.chamada.writer import CallLogWriter
    from tests.api.test_call_log_writer import record as call_record

    def record():
        return call_record(
            integrator.id,
            chave_id="abcdefghijkl",
            metodo="GET",
            endpoint="/saldo",
            caminho="/v1/saldo",
            status=200,
            duracao_ms=1.5,
            content_type=None,
            request_body=None,
            response_body=b'{"data":{"nota":"fale com joana@loja.com.br"}}',
        )

    writer = CallLogWriter(flush_seconds=60, body_limit=65536)
    first, second = record(), record()
    writer.add(first)
    await writer.flush()
    writer.add(first)  # the same batch again
    writer.add(second)
    await writer.flush()
    stored = await Chamada.filter(id__in=[first.id, second.id]).order_by("id")
    assert [c.id for c in stored] == sorted([first.id, second.id])
    assert all(c.corpo_recebido == '{"data":{"nota":"fale com j***@loja.com.br"}}' for c in stored)
    assert all(c.cabecalhos["Authorization"] == "Bearer sk_test_abcdefghijkl_****" for c in stored)


async def test_the_detail_shows_the_response_headers_an_integrator_debugs_with(client, integrator):
    # given a call counted by the rate limit, a forced 429 and a replayed POST
    plain = await client.get("/v1/saldo", headers=integrator.headers)
    forced = await client.get("/v1/saldo", headers=auth(integrator.key, **{"X-Vitrine-Teste": "forcar-429"}))
    body = {"codigoExterno": "cabecalhos", "nome": "n"}
    repeated = auth(integrator.key, **{"Idempotency-Key": "cabecalhos-123"})
    await client.post("/v1/contas", json=body, headers=repeated)
    replay = await client.post("/v1/contas", json=body, headers=repeated)
    assert replay.headers["Idempotent-Replayed"] == "true"
    # then each detail carries the headers the response had
    headers = (await detail(client, integrator, plain.headers["X-Request-Id"]))["cabecalhosResposta"]
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
        assert headers[name] == plain.headers[name]
    assert "Retry-After" not in headers and "Idempotent-Replayed" not in headers
    headers = (await detail(client, integrator, forced.headers["X-Request-Id"]))["cabecalhosResposta"]
    assert forced.status == 429 and headers["Retry-After"] == "5" == forced.headers["Retry-After"]
    headers = (await detail(client, integrator, replay.headers["X-Request-Id"]))["cabecalhosResposta"]
    assert headers["Idempotent-Replayed"] == "true"


async def test_the_error_rate_count_does_not_wait_for_the_requests_connection(client, integrator):
    """The judges count the window's calls after every batch. On SQLite the queries of one
    connection take turns, so the count runs on the call log's connection: while a request holds
    the main connection (an open transaction here), the count still answers."""
    import asyncio

    from graphql_api.chamada import repository
    from graphql_api.core.transactions import transaction

    assert (await client.get("/v1/saldo", headers=integrator.headers)).status == 200
    since = datetime.now(UTC) - timedelta(minutes=15)

    async def counted():
        assert (await repository.count_since(integrator.id, "teste", since))[0] >= 1

    await eventually(counted)
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold_main_connection():
        async with transaction():
            holding.set()
            await release.wait()

    holder = asyncio.create_task(hold_main_connection())
    await asyncio.wait_for(holding.wait(), timeout=5)
    try:
        total, errors = await asyncio.wait_for(repository.count_since(integrator.id, "teste", since), timeout=5)
    finally:
        release.set()
        await holder
    assert total >= 1 and errors == 0


@pytest.mark.parametrize(
    "raw",
    [
        '{"nome": "n", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"nome": "n", "x": ' + "[" * 5_000 + "]" * 5_000 + "}",
        '{"nome": "\\ud800"}',
    ],
    ids=["100000-niveis", "5000-niveis", "surrogate"],
)
async def test_a_body_that_cannot_be_masked_is_noted_with_a_warning_not_an_error(client, integrator, caplog, raw):
    # given hostile bodies the facade refuses: too deep to walk, or not text
    caplog.set_level(logging.INFO)
    response = await client.post(
        "/v1/contas", data=raw.encode(), headers=integrator.headers | {"Content-Type": "application/json"}
    )
    assert response.status == 400
    # then the call is logged with its metadata and a note for the body it could not mask
    call = await detail(client, integrator, response.headers["X-Request-Id"])
    assert call["status"] == 400 and call["codigoErro"] == "INVALID_JSON"
    assert call["corpoEnviado"] is not None
    # and that expected condition is one warning line, no error and no traceback
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], [
        r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info
    ]
