"""The call log's writer: a record it cannot write never holds back the others, and a graceful
stop writes every buffered call."""

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import pytest

from graphql_api.chamada.models import Chamada
from graphql_api.chamada.writer import NOTE, CallLogWriter, CallRecord
from graphql_api.core.ids import new_id

ROOT = Path(__file__).resolve().parents[2]


def record(integrador_id: str | None, **fields) -> CallRecord:
    values = dict(
        id=new_id("req_"),
        integrador_id=integrador_id,
        ambiente="teste",
        credencial="api_key",
        chave_id=None,
        conta_id=None,
        metodo="POST",
        endpoint="/contas",
        caminho="/v1/contas",
        status=201,
        duracao_ms=1.0,
        codigo_erro=None,
        mensagem_erro=None,
        causa_erro=None,
        replay=False,
        idempotency_key=None,
        authorization="Bearer sk_test_abcdefghijkl_" + "x" * 40,
        content_type="application/json",
        request_body=b'{"nome": "n"}',
        response_body=b'{"data": {}}',
        criado_em=datetime.now(UTC),
    )
    return CallRecord(**(values | fields))


async def test_a_record_that_cannot_be_written_does_not_hold_back_the_batch(client, integrator):
    writer = CallLogWriter(flush_seconds=3600, body_limit=64 * 1024)
    deep = b'{"x": ' + b"[" * 5000 + b"]" * 5000 + b"}"  # masking it would exhaust the stack
    good, unmaskable, refused, nul, last = (
        record(integrator.id),
        record(integrator.id, request_body=deep),
        record(None),  # no integrator: the database refuses it even without bodies
        record(integrator.id, caminho="/v1/contas?x=\x00", request_body=b'{"nome": "a\\u0000b"}'),
        record(integrator.id),
    )
    for r in (good, unmaskable, refused, nul, last):
        writer.add(r)
    # when the batch is written
    await writer.flush()
    # then every writable call is stored, and the buffer is empty: nothing blocks the next batch
    stored = {c.id: c for c in await Chamada.filter(id__in=[good.id, unmaskable.id, refused.id, nul.id, last.id])}
    assert set(stored) == {good.id, unmaskable.id, nul.id, last.id}
    assert stored[good.id].corpo_enviado == '{"nome": "n"}'
    assert stored[unmaskable.id].corpo_enviado == NOTE and stored[unmaskable.id].status == 201
    assert "\x00" not in stored[nul.id].caminho
    assert writer.dropped == 1 and writer.isolated >= 2
    writer.add(record(integrator.id))
    await writer.flush()
    assert not writer._buffer


@pytest.mark.parametrize("json_batches", [True, False], ids=["json", "bound"])
async def test_every_column_is_stored_as_the_call_had_it(client, integrator, json_batches):
    """A batch is written in one statement (SQLite: one JSON array of rows, or rows bound one by
    one in the call log's own process): texts with accents, quotes and a NUL, numbers, booleans,
    dates and the JSON columns, present or empty, read back as they were."""
    writer = CallLogWriter(flush_seconds=3600, body_limit=64 * 1024, json_batches=json_batches)
    when = datetime(2026, 11, 26, 3, 4, 5, 678901, tzinfo=UTC)
    full = record(
        integrator.id,
        metodo="PUT",
        endpoint="/contas/{contaId}",
        caminho='/v1/contas/x?q="aspas"&ç=é',
        status=409,
        duracao_ms=12.34,
        codigo_erro="CONFLICT",
        mensagem_erro="Conflito: já existe “isso”.",
        causa_erro="linha 1\nlinha 2\tcom tab",
        replay=True,
        idempotency_key="chave-idem-123456",
        conta_id="cta_1",
        chave_id="abcdefghijkl",
        request_body='{"nome": "Loja ☂ \\"x\\""}'.encode(),
        response_body=b'{"erro": {"tipo": "CONFLICT"}}',
        criado_em=when,
        retry_after=7,
        cabecalhos_resposta={"X-RateLimit-Remaining": "9", "Retry-After": "7"},
    )
    bare = record(
        integrator.id,
        metodo="GET",
        authorization=None,
        content_type=None,
        request_body=None,
        response_body=None,
        cabecalhos_resposta=None,
        criado_em=when,
    )
    nul = record(integrator.id, request_body=b'{"nome": "a\x00b"}', criado_em=when)  # raw NUL: not JSON
    for r in (full, bare, nul):
        writer.add(r)
    await writer.flush()
    stored = {c.id: c for c in await Chamada.filter(id__in=[full.id, bare.id, nul.id])}
    got = stored[full.id]
    assert (got.metodo, got.endpoint, got.caminho, got.status, got.classe_status) == (
        "PUT",
        "/contas/{contaId}",
        '/v1/contas/x?q="aspas"&ç=é',
        409,
        4,
    )
    assert (got.duracao_ms, got.codigo_erro, got.mensagem_erro, got.causa_erro) == (
        12.34,
        "CONFLICT",
        "Conflito: já existe “isso”.",
        "linha 1\nlinha 2\tcom tab",
    )
    assert got.replay is True and got.corpo_enviado_cortado is False and got.corpo_recebido_cortado is False
    assert (got.conta_id, got.chave_id, got.client_id) == ("cta_1", "abcdefghijkl", None)
    assert got.corpo_enviado == '{"nome": "Loja ☂ \\"x\\""}' and got.corpo_recebido == '{"erro": {"tipo": "CONFLICT"}}'
    assert got.cabecalhos_resposta == {"X-RateLimit-Remaining": "9", "Retry-After": "7"}
    assert got.cabecalhos["Content-Type"] == "application/json" and got.cabecalhos["Idempotency-Key"] == "chav****3456"
    assert got.criado_em == when
    empty = stored[bare.id]
    assert empty.cabecalhos == {} and empty.cabecalhos_resposta is None
    assert empty.corpo_enviado is None and empty.corpo_recebido is None and empty.replay is False
    # SQLite keeps a NUL; PostgreSQL's text cannot hold one, so that call is kept without its bodies
    assert stored[nul.id].status == 201 and stored[nul.id].corpo_enviado in ('{"nome": "a\x00b"}', NOTE)


async def test_a_round_of_the_writer_leaves_calls_arriving_meanwhile_to_the_next(client, integrator):
    """Under load the writer writes in rounds of what had arrived, not in a trickle of tiny batches
    back to back (a commit and the listeners for every few calls); a stop still drains it all."""
    writer = CallLogWriter(flush_seconds=3600, body_limit=64 * 1024)
    first, meanwhile = record(integrator.id), record(integrator.id)
    seen: list[list[str]] = []

    async def listener(batch):
        seen.append([r.id for r in batch])
        if len(seen) == 1:
            writer.add(meanwhile)  # a call logged while the first one was being written

    writer.listeners.append(listener)
    writer.add(first)
    await writer.flush(drain=False)
    assert seen == [[first.id]] and writer._buffer == [meanwhile]
    assert await Chamada.filter(id=first.id).exists() and not await Chamada.filter(id=meanwhile.id).exists()
    await writer.flush()  # draining, as at a stop
    assert seen == [[first.id], [meanwhile.id]] and not writer._buffer


async def test_listeners_see_the_written_calls_once_per_interval_however_small_the_batches(client, integrator):
    """Batches are small (the database's work spreads out), but the listeners' rounds cost a query
    or two each: they see what was written at most once per flush interval, and all of it at a
    drain."""
    writer = CallLogWriter(flush_seconds=3600, body_limit=64 * 1024, batch_size=2)
    seen: list[list[str]] = []

    async def listener(batch):
        seen.append([r.id for r in batch])

    writer.listeners.append(listener)
    calls = [record(integrator.id) for _ in range(5)]
    writer.add(calls[0])
    await writer.flush(drain=False)
    assert seen == [[calls[0].id]]
    for call in calls[1:]:
        writer.add(call)
    await writer.flush(drain=False)  # two inserts of two, within the interval
    assert seen == [[calls[0].id]]
    assert await Chamada.filter(id__in=[c.id for c in calls]).count() == 5
    await writer.flush()  # a stop drains: the listeners see the rest, in order, at once
    assert seen == [[calls[0].id], [c.id for c in calls[1:]]]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# Nothing is written before the stop: every call waits in the buffer.
WRITES_AT_STOP_ONLY = {"VITRINE_CALL_LOG_FLUSH_SECONDS": "3600", "VITRINE_CALL_LOG_BATCH_SIZE": "10000"}


def _start(port: int, log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    """`vitrine serve` as deployed: the call log written by its own process (the default)."""
    env = os.environ | {"VITRINE_PORT": str(port)} | (env or {})
    process = subprocess.Popen(
        [sys.executable, "-m", "vitrine", "serve"],
        cwd=ROOT,
        env=env,
        stdout=open(log, "a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        assert process.poll() is None, log.read_text()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/docs", timeout=1)
            return process
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"vitrine serve did not start: {log.read_text()}")


async def test_a_graceful_stop_writes_every_buffered_call(factory, tmp_path):
    # given a service whose call log has 5,000 calls waiting in its buffer
    integrator = await factory.integrator(limite_chave=100_000, limite_integrador=100_000)
    port, log = _free_port(), tmp_path / "serve.log"
    process = _start(port, log, WRITES_AT_STOP_ONLY)
    try:
        url = f"http://127.0.0.1:{port}/v1/saldo"
        headers = {"Authorization": f"Bearer {integrator.key}"}
        ids: list[str] = []
        async with aiohttp.ClientSession() as session:

            async def call(n: int) -> None:
                for _ in range(n):
                    async with session.get(url, headers=headers) as response:
                        assert response.status == 200
                        ids.append(response.headers["X-Request-Id"])

            await asyncio.gather(*(call(500) for _ in range(10)))
        assert len(ids) == 5000
        assert await Chamada.filter(id__in=ids[:50]).count() == 0  # still buffered
        # when it is stopped with SIGTERM and started again
        os.killpg(process.pid, signal.SIGTERM)
        assert process.wait(timeout=60) == 0
        process = _start(port, log, WRITES_AT_STOP_ONLY)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    # then every call is in the log
    assert "5000 buffered calls written at shutdown" in log.read_text()
    stored = 0
    for start in range(0, len(ids), 500):
        stored += await Chamada.filter(id__in=ids[start : start + 500]).count()
    assert stored == 5000
