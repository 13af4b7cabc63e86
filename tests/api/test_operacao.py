"""What an operator watches (docs/operacao.md): /health and /health/ready for load balancers,
/metrics for Prometheus (read here by the library's own text parser), and the log lines: JSON
with the request's id, nothing at INFO from a periodic job that did nothing."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta

import pytest
from prometheus_client.parser import text_string_to_metric_families

from graphql_api.chamada.models import Chamada
from graphql_api.geracao.models import Geracao
from tests.factories import Factory, auth, eventually
from tests.harness import BACKEND, REDIS_NAMESPACE, REDIS_URL
from tests.processes import start_vitrine
from vitrine.app import create_app
from vitrine.settings import Settings

TOKEN = "token-de-metricas-da-suite"
postgres_only = pytest.mark.skipif(BACKEND != "postgres", reason="needs Redis and `vitrine worker`: PostgreSQL leg")
embedded_only = pytest.mark.skipif(BACKEND == "postgres", reason="the in-process broker: embedded leg")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _checks(body: dict) -> dict[str, dict]:
    return {check["name"]: check for check in body["checks"]}


# -- /health and /health/ready ---------------------------------------------------------------------


async def test_health_answers_without_credentials_and_stays_out_of_the_call_log(client, factory, integrator):
    await client.get("/v1/saldo", headers=integrator.headers)  # a call the log does keep

    response = await client.get("/health")
    assert response.status == 200
    assert await response.json() == {"status": "ok"}

    async def ready() -> dict:
        response = await client.get("/health/ready")
        assert response.status == 200, await response.text()
        return await response.json()

    body = await eventually(ready, timeout=30)  # the PostgreSQL leg: the worker's first heartbeat
    assert body["status"] == "ok"
    checks = _checks(body)
    expected = {"database", "call_log", "workers"} | ({"redis"} if BACKEND == "postgres" else set())
    assert set(checks) == expected
    for check in checks.values():
        assert check["status"] == "ok"
        assert isinstance(check["latency_ms"], float | int) and check["latency_ms"] >= 0

    async def logged() -> None:
        assert await Chamada.filter(integrador_id=integrator.id, endpoint="/saldo").exists()

    await eventually(logged)
    assert not await Chamada.filter(caminho__startswith="/health").exists()
    assert (await client.get("/metrics")).status == 404  # no VITRINE_METRICS_TOKEN: no metrics at all


async def test_ready_is_503_when_the_database_does_not_answer(aiohttp_client):
    # A database nobody listens on: the process still answers /health, and says it is not ready.
    settings = Settings(call_log_process=False, database_url=f"postgres://postgres@127.0.0.1:{_free_port()}/vitrine")
    client = await aiohttp_client(create_app(settings))

    assert (await client.get("/health")).status == 200
    response = await client.get("/health/ready")
    assert response.status == 503
    body = await response.json()
    assert body["status"] == "fail"
    database = _checks(body)["database"]
    assert database["status"] == "fail"
    assert "Connect" in database["detail"] or "refused" in database["detail"]
    assert database["latency_ms"] < settings.health_timeout_seconds * 1000 + 500  # time-bounded


@embedded_only
async def test_ready_is_503_without_workers_in_the_embedded_default(aiohttp_client):
    client = await aiohttp_client(create_app(Settings(call_log_process=False, inprocess_workers=False)))

    response = await client.get("/health/ready")

    assert response.status == 503
    workers = _checks(await response.json())["workers"]
    assert workers["status"] == "fail"
    assert "VITRINE_INPROCESS_WORKERS" in workers["detail"]


@postgres_only
async def test_ready_is_503_when_the_workers_heartbeat_is_stale(aiohttp_client):
    from redis.asyncio import Redis

    # A deployment of its own in the session's Redis, whose only worker stopped 2 minutes ago.
    settings = Settings(call_log_process=False, redis_namespace=f"{REDIS_NAMESPACE}-parado")
    redis = Redis.from_url(REDIS_URL)
    key = settings.redis_key("workers")
    try:
        await redis.zadd(key, {"outra-maquina:1:2": time.time() - 120})
        client = await aiohttp_client(create_app(settings))

        response = await client.get("/health/ready")

        assert response.status == 503
        checks = _checks(await response.json())
        assert checks["database"]["status"] == "ok"
        assert checks["redis"]["status"] == "ok"
        assert checks["workers"]["status"] == "fail"
        idade = int(re.search(r"heartbeat (\d+) s ago", checks["workers"]["detail"]).group(1))
        assert 120 <= idade < 180  # the app took a moment to start on a busy machine
    finally:
        await redis.delete(key)
        await redis.aclose()


# -- /metrics --------------------------------------------------------------------------------------


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels, parsed by prometheus_client's own parser."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_metrics_refuse_without_the_token_and_count_what_happened(aiohttp_client):
    # The call log flushes once an hour here: the calls of this test stay in its buffer.
    settings = Settings(
        call_log_process=False, metrics_token=TOKEN, call_log_flush_seconds=3600, call_log_batch_size=10_000
    )
    client = await aiohttp_client(create_app(settings))
    factory = Factory(client)
    integrator = await factory.integrator()

    assert (await client.get("/metrics")).status == 401
    refused = await client.get("/metrics", headers=auth("outro-token-qualquer-123"))
    assert refused.status == 401
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")

    async def scrape() -> dict:
        response = await client.get("/metrics", headers=auth(TOKEN))
        assert response.status == 200
        assert response.content_type == "text/plain"
        return _samples(await response.text())

    before = await scrape()
    for _ in range(3):
        assert (await client.get("/v1/saldo", headers=integrator.headers)).status == 200
    missing = await client.get("/v1/geracoes/ger_00000000000000000000000000", headers=integrator.headers)
    assert missing.status == 404
    # A generation waiting in the queue for an hour, as the rows are the truth of the queues.
    parada = await factory.geracao(integrator, situacao="na_fila", etapa="na_fila", percentual=0, resultados={})
    await Geracao.filter(id=parada.id).update(criado_em=datetime.now(UTC) - timedelta(hours=1))
    try:
        after = await scrape()
    finally:
        await Geracao.filter(id=parada.id).delete()

    requests = "vitrine_http_requests_total"
    saldo = {"route": "/v1/saldo", "method": "GET", "status": "2xx"}
    assert _value(after, requests, **saldo) - _value(before, requests, **saldo) == 3
    geracao = {"route": "/v1/geracoes/{geracaoId}", "method": "GET", "status": "4xx"}
    assert _value(after, requests, **geracao) - _value(before, requests, **geracao) == 1
    assert not [labels for name, labels in after if "ger_0000" in str(labels)]  # templates, never paths
    duration = {"route": "/v1/saldo", "method": "GET"}
    timed = "vitrine_http_request_duration_seconds_count"
    assert _value(after, timed, **duration) - _value(before, timed, **duration) == 3

    assert _value(after, "vitrine_queue_items", kind="geracao") >= 1
    assert _value(after, "vitrine_queue_oldest_age_seconds", kind="geracao") >= 3600
    assert ("vitrine_queue_items", (("kind", "email"),)) in after
    assert _value(after, "vitrine_queue_read_ok") == 1
    # The four calls wait in the call log's buffer (the scrapes are not logged).
    assert _value(after, "vitrine_call_log_buffered") == 4
    assert ("vitrine_call_log_dropped_total", ()) in after
    assert _value(after, "vitrine_pool_workers", pool="photo") == 1


# -- logs ------------------------------------------------------------------------------------------


async def test_json_log_lines_carry_the_request_id_and_the_integrator(integrator, tmp_path):
    port = _free_port()
    env = os.environ | {
        "VITRINE_PORT": str(port),
        "VITRINE_LOG_FORMAT": "json",
        "VITRINE_LOG_LEVEL": "debug",  # the database's own lines: several per request
        "VITRINE_INPROCESS_WORKERS": "false",
    }
    log_path = tmp_path / "serve.log"
    with open(log_path, "w") as log:
        process = start_vitrine("serve", env=env, log=log)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 90
        while True:
            assert process.poll() is None, log_path.read_text()
            try:
                urllib.request.urlopen(f"{base}/v1/openapi.json", timeout=2).close()
                break
            except OSError:
                assert time.time() < deadline, log_path.read_text()
                time.sleep(0.2)
        request = urllib.request.Request(f"{base}/v1/saldo", headers=integrator.headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            request_id = response.headers["X-Request-Id"]
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)

    lines = [json.loads(line) for line in log_path.read_text().splitlines() if line.startswith("{")]
    assert lines and all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    of_request = [line for line in lines if line.get("request_id") == request_id]
    assert of_request, "no log line carries the request's id"
    assert any(line.get("integrador_id") == integrator.id for line in of_request)
    assert all(line.get("integrador_id") in (None, integrator.id) for line in of_request)


@embedded_only
async def test_a_periodic_run_logs_at_info_only_when_it_did_something(aiohttp_client, caplog):
    from tasks import geracao, maintenance
    from tasks.scheduler import PeriodicJobs

    # No periodic loop of its own: the only runs are the two rounds below.
    client = await aiohttp_client(create_app(Settings(call_log_process=False, inprocess_workers=False)))
    factory = Factory(client)
    integrator = await factory.integrator()
    caplog.set_level(logging.DEBUG)

    def outcome_of(task_name: str) -> list[logging.LogRecord]:
        return [r for r in caplog.records if getattr(r, "task_name", None) == task_name and r.name == "tasks"]

    async def ran(task_name: str) -> list[logging.LogRecord]:
        assert outcome_of(task_name)
        return [r for r in caplog.records if getattr(r, "task_name", None) == task_name]

    # Idle: the statistics job always returns {}; the broker's own line and the outcome go to DEBUG.
    await PeriodicJobs([(maintenance.atualizar_estatisticas, 3600)], None, key_prefix="teste").run_once()
    idle = await eventually(lambda: ran("manutencao.estatisticas"))
    assert all(record.levelno == logging.DEBUG for record in idle), [(r.levelname, r.getMessage()) for r in idle]
    assert any(record.getMessage().startswith("Executing task") for record in idle)
    assert all(record.task_id for record in idle)

    # A generation whose worker died on its last attempt: the sweep fails it, and says so at INFO.
    await factory.geracao(
        integrator,
        situacao="processando",
        etapa="renderizando",
        percentual=10,
        tentativas=3,
        reservada_ate=datetime.now(UTC) - timedelta(minutes=5),
    )
    await PeriodicJobs([(geracao.varrer, 30)], None, key_prefix="teste").run_once()
    swept = await eventually(lambda: ran("geracao.varrer"))
    [line] = outcome_of("geracao.varrer")
    assert line.levelno == logging.INFO
    assert "'falharam': 1" in line.getMessage() or "'falharam':" in line.getMessage()
    assert [r for r in swept if r.getMessage().startswith("Executing task")][0].levelno == logging.DEBUG


@postgres_only
async def test_the_worker_logs_no_idle_periodic_run(worker_process):
    from redis.asyncio import Redis

    redis = Redis.from_url(REDIS_URL)
    try:
        # The notice sweep runs every 0.2 s in the suite: each run takes its slot's lock.
        runs = [key async for key in redis.scan_iter(match=f"{REDIS_NAMESPACE}:agenda:aviso.varrer:*")]
    finally:
        await redis.aclose()
    assert runs
    lines = worker_process.log.read_text().splitlines()
    assert lines
    at_info = [line for line in lines if "aviso.varrer" in line and " INFO " in line]
    # Only runs that did something (other tests' deliveries), never the broker's routine line.
    assert not [line for line in at_info if "Executing task" in line or not re.search(r"': [1-9]", line)]


# -- the worker's own port -------------------------------------------------------------------------


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@postgres_only
def test_the_worker_port_answers_for_its_processes(tmp_path):
    port = _free_port()
    env = os.environ | {"VITRINE_WORKER_PORT": str(port), "VITRINE_METRICS_TOKEN": TOKEN}
    log_path = tmp_path / "worker.log"
    with open(log_path, "w") as log:
        process = start_vitrine("worker", "--workers", "2", env=env, log=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            assert process.poll() is None, log_path.read_text()
            status, body = _get(f"{base}/health/ready") if _listening(port) else (0, "")
            if status == 200:
                break
            assert time.time() < deadline, f"{status} {body}\n{log_path.read_text()}"
            time.sleep(0.3)
        ready = json.loads(body)
        assert _checks(ready)["workers"]["detail"] == "2 of 2 worker processes alive"
        assert _get(f"{base}/health") == (200, '{"status": "ok"}')
        assert _get(f"{base}/metrics")[0] == 401

        status, text = _get(f"{base}/metrics", auth(TOKEN))
        assert status == 200
        samples = _samples(text)
        # One photo process in each worker process: the port adds up both.
        assert _value(samples, "vitrine_pool_workers", pool="photo") == 2
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False
