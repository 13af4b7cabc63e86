"""The service's Prometheus metrics (prometheus-client), served at GET /metrics with
`Authorization: Bearer <VITRINE_METRICS_TOKEN>` (docs/operacao.md, "Métricas").

Each command is one scrape target. `vitrine serve` with one process keeps its metrics in memory;
`vitrine serve --processes N` and `vitrine worker` (which runs its tasks in child processes) put
the library in its multiprocess mode: every process writes its values to files in a directory of
that command (PROMETHEUS_MULTIPROC_DIR, set by the command before anything is measured:
vitrine/cli.py), and whichever process answers a scrape adds all of them up. So the N web
processes sharing a port answer the same totals, and the worker's port answers for all its
processes.

What each process knows only in its memory (the call log's buffer, its render pools) is copied into
gauges by `ProcessSampler`, at every scrape in the process that answers it and every few seconds in
every process (the others'). What the database knows (the queues: rows waiting for a worker) is
read at the scrape, by the process that answers it (`QueueFigures`): a row is the truth of each
queue, in every topology, whoever runs it."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

if TYPE_CHECKING:
    from graphql_api.core.filas import Fila
    from vitrine.runtime import Runtime

log = logging.getLogger(__name__)

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"

# Each counter's and histogram's creation time doubles the series for no question an operator asks.
disable_created_metrics()

HTTP_REQUESTS = Counter(
    "vitrine_http_requests_total",
    "HTTP requests answered, by route template (never the raw path), method and status class.",
    ["route", "method", "status"],
)
HTTP_DURATION = Histogram(
    "vitrine_http_request_duration_seconds",
    "Time from a request's arrival to its answer, by route template and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
TASKS = Counter("vitrine_tasks_total", "Task runs, by task and outcome (ok, error).", ["task", "result"])
TASK_DURATION = Histogram(
    "vitrine_task_duration_seconds",
    "How long each task run took, by task.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0),
)
PERIODIC_LAG = Gauge(
    "vitrine_periodic_lag_seconds",
    "How long after its due moment the last run of each periodic job started (queue wait included).",
    ["job"],
    multiprocess_mode="mostrecent",
)
PERIODIC_LAST_RUN = Gauge(
    "vitrine_periodic_last_run_timestamp_seconds",
    "When the last run of each periodic job ended, in Unix time.",
    ["job"],
    multiprocess_mode="max",
)
NOTICE_ATTEMPTS = Counter(
    "vitrine_notice_attempts_total",
    "Notice delivery attempts by outcome: entregue, reagendada (failed, retried later), falhou (gave "
    "up), desativado (the address was switched off), ignorada (nothing to send).",
    ["result"],
)
CALL_LOG_BUFFERED = Gauge(
    "vitrine_call_log_buffered",
    "Calls waiting in the web processes' memory to be written to the call log.",
    multiprocess_mode="livesum",
)
CALL_LOG_DROPPED = Counter(
    "vitrine_call_log_dropped_total", "Calls the call log could not store at all (buffer full, refused)."
)
CALL_LOG_ISOLATED = Counter(
    "vitrine_call_log_isolated_total", "Calls stored in the call log without their bodies (unreadable, refused)."
)
POOL_WORKERS = Gauge(
    "vitrine_pool_workers", "Processes of each CPU pool (render, photo).", ["pool"], multiprocess_mode="livesum"
)
POOL_BUSY = Gauge("vitrine_pool_busy", "Processes of each CPU pool at work.", ["pool"], multiprocess_mode="livesum")
POOL_WAITING = Gauge(
    "vitrine_pool_waiting", "Jobs waiting for a process of each CPU pool.", ["pool"], multiprocess_mode="livesum"
)

# How often every process copies what only its memory knows into the gauges above.
SAMPLE_SECONDS = 5.0


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROCESS_ENV) or None


def authorized(header: str | None, token: str) -> bool:
    scheme, _, given = (header or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def exposition(extra: Iterable[object] = ()) -> tuple[bytes, str]:
    """The text of a scrape: this process's metrics, or with the multiprocess mode every
    process's of this command (the values of processes that ended are let go first: their live
    gauges must not count), and the `extra` collectors (read at the scrape)."""
    path = multiprocess_dir()
    if path is None:
        registry: CollectorRegistry = REGISTRY
        extra = list(extra)
        if extra:
            registry = CollectorRegistry(auto_describe=False)
            registry.register(REGISTRY)
    else:
        _forget_dead_processes(path)
        registry = CollectorRegistry(auto_describe=False)
        MultiProcessCollector(registry, path)
    for collector in extra:
        registry.register(collector)  # type: ignore[arg-type]
    return generate_latest(registry), CONTENT_TYPE_LATEST


def _forget_dead_processes(path: str) -> None:
    for name in os.listdir(path):
        if not name.startswith("gauge_live"):
            continue
        pid = int(name.rsplit("_", 1)[1].removesuffix(".db"))
        if not os.path.exists(f"/proc/{pid}"):
            mark_process_dead(pid, path)


class ProcessSampler:
    """Copies what only this process's memory knows into gauges: the call log's buffer and what
    it dropped, the CPU pools' processes at work."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._dropped = self._isolated = 0
        self._task: asyncio.Task | None = None

    def sample(self) -> None:
        call_log = self.runtime.call_log
        CALL_LOG_BUFFERED.set(call_log.buffered)
        # The writer counts since the process started; the counters move by what is new.
        if call_log.dropped > self._dropped:
            CALL_LOG_DROPPED.inc(call_log.dropped - self._dropped)
        if call_log.isolated > self._isolated:
            CALL_LOG_ISOLATED.inc(call_log.isolated - self._isolated)
        self._dropped, self._isolated = call_log.dropped, call_log.isolated
        for pool in (self.runtime.render_pool, self.runtime.photo_pool):
            POOL_WORKERS.labels(pool.name).set(pool.workers)
            POOL_BUSY.labels(pool.name).set(pool.busy)
            POOL_WAITING.labels(pool.name).set(pool.waiting)

    def start(self) -> None:
        self.sample()
        self._task = asyncio.create_task(self._loop(), name="metrics-sampler")

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(SAMPLE_SECONDS)
            try:
                self.sample()
            except Exception:
                log.exception("metrics: sampling this process failed")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


@dataclass(frozen=True)
class Queue:
    items: int
    oldest_age_seconds: float  # 0 with nothing due


class QueueFigures:
    """A collector of the queues read from the database at one scrape (`read` first)."""

    def __init__(self, queues: dict[str, Queue]) -> None:
        self.queues = queues

    @classmethod
    async def read(cls, timeout: float) -> QueueFigures:
        now = datetime.now(UTC)
        try:
            figures = await asyncio.wait_for(_queues(now), timeout)
        except Exception:
            log.warning("metrics: the queues could not be read from the database", exc_info=True)
            return cls({})
        return cls(
            {
                kind: Queue(
                    fila.itens, max(0.0, (now - fila.devido_desde).total_seconds()) if fila.devido_desde else 0.0
                )
                for kind, fila in figures.items()
            }
        )

    def collect(self) -> Iterable[Metric]:
        items = GaugeMetricFamily(
            "vitrine_queue_items", "Rows waiting for a worker (or being worked on), by kind.", labels=["kind"]
        )
        age = GaugeMetricFamily(
            "vitrine_queue_oldest_age_seconds",
            "Since when the oldest row of each kind has been due and not done (0: none due).",
            labels=["kind"],
        )
        for kind, queue in sorted(self.queues.items()):
            items.add_metric([kind], queue.items)
            age.add_metric([kind], queue.oldest_age_seconds)
        read = GaugeMetricFamily("vitrine_queue_read_ok", "1 when this scrape could read the queues from the database.")
        read.add_metric([], 1 if self.queues else 0)
        yield from (items, age, read)


async def _queues(now: datetime) -> dict[str, Fila]:
    """Each kind of background work, as its rows say (graphql_api/core/filas.py)."""
    from graphql_api.aviso import repository as avisos
    from graphql_api.conferencia import repository as conferencias
    from graphql_api.email import repository as emails
    from graphql_api.geracao import repository as geracoes

    return {
        "geracao": await geracoes.fila(now),
        "conferencia": await conferencias.fila(now),
        "aviso_entrega": await avisos.fila(now),
        "email": await emails.fila(now),
    }


def periodic_ran(job: str, due: float | None, started: float) -> None:
    """A periodic job's run began at `started` (Unix time) for its slot due at `due`."""
    if due is not None:
        PERIODIC_LAG.labels(job).set(max(0.0, started - due))


def periodic_ended(job: str) -> None:
    PERIODIC_LAST_RUN.labels(job).set(time.time())
