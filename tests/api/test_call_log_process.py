"""The call log written by a process of its own, the service's default: what the web process hands
over is stored whole and masked, the listeners judge it, a child that dies loses nothing, and the
child dies with its web process."""

import asyncio
import os
import signal
import time
import urllib.request
from pathlib import Path

import pytest

from graphql_api.chamada.models import Chamada
from tests.api.test_call_log import detail
from tests.api.test_call_log_writer import _free_port, _start, record
from tests.api.test_integracao import wait_step
from tests.factories import auth, eventually
from vitrine.call_log_process import _record, _wire
from vitrine.keys import RUNTIME
from vitrine.settings import Settings


@pytest.fixture
def settings(request) -> Settings:
    return Settings(call_log_process=True, **getattr(request, "param", {}))


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_record_crosses_the_pipe_unchanged():
    original = record(
        "int_x",
        chave_id="k" * 12,
        conta_id="cta_1",
        cabecalhos_resposta={"Retry-After": "3"},
        retry_after=3,
        client_id="app_1",
        response_body=None,
        duracao_ms=12.345678,
    )
    crossed = _record(_wire(original))
    assert crossed == original  # the arrival time to the microsecond, bytes as bytes
    assert crossed.criado_em.tzinfo is not None


async def test_a_call_is_stored_masked_by_the_call_log_process(client, factory, integrator):
    conta = await factory.conta(integrator)
    ficha = {"nome": "Produto", "descricao": "Contato: joana.silva@loja.com.br, (11) 98765-4321"}
    response = await client.put(f"/v1/contas/{conta['id']}/produtos/SKU-PROC", json=ficha, headers=auth(integrator.key))
    call = await detail(client, integrator, response.headers["X-Request-Id"])
    sent = str(call["corpoEnviado"])
    assert "joana.silva" not in sent and "98765-4321" not in sent and "j***@loja.com.br" in sent
    assert call["cabecalhosEnviados"]["Authorization"].endswith("_****")
    # written by a child of this process, not by the web process itself
    child = client.app[RUNTIME].call_log._child
    assert child is not None and child.returncode is None
    with open(f"/proc/{child.pid}/stat") as stat:
        assert int(stat.read().rpartition(")")[2].split()[1]) == os.getpid()


async def test_the_listeners_judge_what_the_call_log_process_stored(client, integrator):
    response = await client.get("/v1/saldo", headers=auth(integrator.key))
    assert response.status == 200
    etapa = await wait_step(client, integrator, "CHAVE_E_PRIMEIRA_CHAMADA", "ok")
    assert etapa["evidencia"]["requestId"] == response.headers["X-Request-Id"]


async def _calls_to_a_stopped_child(client, integrator):
    """The call log's child, stopped (SIGSTOP) once it has stored a first call, and the request ids
    of 5 calls made after: (that child, the ids)."""
    first = await client.get("/v1/saldo", headers=auth(integrator.key))
    await detail(client, integrator, first.headers["X-Request-Id"])
    child = client.app[RUNTIME].call_log._child
    os.kill(child.pid, signal.SIGSTOP)
    ids = []
    for _ in range(5):
        response = await client.get("/v1/saldo", headers=auth(integrator.key))
        ids.append(response.headers["X-Request-Id"])
    return child, ids


async def test_calls_survive_the_call_log_process_dying_with_their_batch(client, integrator):
    writer = client.app[RUNTIME].call_log
    # given a batch handed to the child, which holds it unanswered (stopped)
    killed, ids = await _calls_to_a_stopped_child(client, integrator)
    await asyncio.sleep(writer.flush_seconds * 4)
    assert writer._buffer  # sent, not yet answered: still the web process's
    # when the child dies with it
    os.kill(killed.pid, signal.SIGKILL)
    # then every call is stored, by a new child
    for request_id in ids:
        await detail(client, integrator, request_id)
    assert writer._child is not None and writer._child.pid != killed.pid
    assert writer.dropped == 0


# A new child's start has its own, longer limit, so a short answer timeout kills only the wedged one.
@pytest.mark.parametrize("settings", [{"call_log_process_timeout_seconds": 1.0}], indirect=True)
async def test_a_call_log_process_silent_past_its_timeout_is_replaced(client, integrator):
    writer = client.app[RUNTIME].call_log
    # given a child that stops answering (stopped, as a wedged process would be), nobody killing it
    stuck, ids = await _calls_to_a_stopped_child(client, integrator)
    # then the web process kills it past the timeout, and a new child stores every call
    for request_id in ids:
        await detail(client, integrator, request_id, timeout=20)
    assert writer._child is not None and writer._child.pid != stuck.pid
    assert stuck.returncode == -signal.SIGKILL
    assert writer.dropped == 0


def _children(pid: int) -> list[int]:
    return [int(child) for task in Path(f"/proc/{pid}/task").glob("*/children") for child in task.read_text().split()]


async def test_the_call_log_process_dies_with_its_web_process(factory, tmp_path):
    integrator = await factory.integrator()
    port, log = _free_port(), tmp_path / "serve.log"
    process = _start(port, log)
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/saldo", headers={"Authorization": f"Bearer {integrator.key}"}
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            request_id = response.headers["X-Request-Id"]

        async def stored():  # by the call log process, which is then up and running
            assert await Chamada.filter(id=request_id).exists()

        await eventually(stored, timeout=15)
        (child,) = [
            pid for pid in _children(process.pid) if b"call_log_process" in Path(f"/proc/{pid}/cmdline").read_bytes()
        ]
        # when the web process is killed outright (not its process group) while its call log
        # process is stuck (stopped: it would not even see its input close)
        os.kill(child, signal.SIGSTOP)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        deadline = time.time() + 10
        while _alive(child) and time.time() < deadline:
            time.sleep(0.05)
        # then its call log process is gone too
        assert not _alive(child)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
