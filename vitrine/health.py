"""Health of the service for load balancers and orchestrators (docs/operacao.md, "Saúde").

GET /health is liveness: the process answers, nothing else is touched. GET /health/ready is
readiness: each dependency this process uses is checked at once, every check bounded by
VITRINE_HEALTH_TIMEOUT_SECONDS, and the answer is 200 when all pass, 503 otherwise, with each
check's name, outcome and latency in the body. Neither needs a credential nor touches any
integrator's call log (they live outside /v1); both are cheap enough to be asked every second.

The workers' part: with Redis, every `vitrine worker` process writes a heartbeat (`Heartbeat`)
into a sorted set of the deployment's namespace, only after its own database answered, and the web
processes read the newest; in the embedded default, the in-process periodic loop's last round."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from redis.asyncio import Redis
from tortoise import connections

from graphql_api.chamada.writer import MAX_BUFFER
from graphql_api.core.transactions import MAIN_CONNECTION
from vitrine.call_log_process import CallLogProcess
from vitrine.runtime import Runtime
from vitrine.settings import Settings

log = logging.getLogger(__name__)


class CheckFailed(Exception):
    """A check's answer that is not an error of the check itself: its text is the detail."""


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    latency_ms: float
    detail: str | None = None

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"name": self.name, "status": "ok" if self.ok else "fail", "latency_ms": self.latency_ms}
        if self.detail:
            body["detail"] = self.detail
        return body


Probe = Callable[[], Awaitable[str | None]]


async def run_check(name: str, probe: Probe, timeout: float) -> Check:
    started = time.perf_counter()
    try:
        detail = await asyncio.wait_for(probe(), timeout)
        ok = True
    except CheckFailed as exc:
        ok, detail = False, str(exc)
    except TimeoutError:
        ok, detail = False, f"no answer in {timeout:g} s"
    except Exception as exc:  # the dependency's own error, named for the operator
        ok, detail = False, f"{type(exc).__name__}: {exc}"[:300]
    return Check(name, ok, round((time.perf_counter() - started) * 1000, 2), detail)


async def run_checks(probes: dict[str, Probe], timeout: float) -> tuple[int, dict[str, Any]]:
    checks = await asyncio.gather(*(run_check(name, probe, timeout) for name, probe in probes.items()))
    ready = all(check.ok for check in checks)
    body = {"status": "ok" if ready else "fail", "checks": [check.body() for check in checks]}
    return (200 if ready else 503), body


# -- the probes ------------------------------------------------------------------------------------


async def database() -> str | None:
    await connections.get(MAIN_CONNECTION).execute_query("SELECT 1")
    return None


def redis_probe(redis: Redis) -> Probe:
    async def probe() -> str | None:
        await redis.ping()
        return None

    return probe


def call_log_probe(runtime: Runtime) -> Probe:
    async def probe() -> str | None:
        writer = runtime.call_log
        if not writer.running:
            raise CheckFailed("the call log's writer is not running")
        if writer.buffered >= MAX_BUFFER:
            raise CheckFailed(f"buffer full ({writer.buffered} calls): new calls are dropped")
        if isinstance(writer, CallLogProcess):
            state = writer.child_state()
            if state == "ended" and writer.buffered:
                raise CheckFailed(f"its process ended with {writer.buffered} calls waiting")
            return f"process {state}, {writer.buffered} calls buffered"
        return f"{writer.buffered} calls buffered"

    return probe


def heartbeats_key(settings: Settings) -> str:
    return settings.redis_key("workers")


def workers_probe(runtime: Runtime, periodic: Any) -> Probe:
    """With Redis: the newest heartbeat of any worker process of the deployment. Embedded: the
    in-process periodic loop (`periodic`, tasks/scheduler.py), which queues every sweep."""
    settings = runtime.settings
    stale = settings.worker_heartbeat_stale_seconds

    async def from_redis() -> str | None:
        assert runtime.redis is not None
        newest = await runtime.redis.zrevrange(heartbeats_key(settings), 0, 0, withscores=True)
        if not newest:
            raise CheckFailed("no worker process has written a heartbeat: is `vitrine worker` running?")
        age = time.time() - float(newest[0][1])
        if age > stale:
            raise CheckFailed(f"newest worker heartbeat {age:.0f} s ago (limit {stale:g} s)")
        alive = await runtime.redis.zcount(heartbeats_key(settings), time.time() - stale, "+inf")
        return f"{alive} worker processes, newest heartbeat {age:.1f} s ago"

    async def embedded() -> str | None:
        if periodic is None or not periodic.running:
            raise CheckFailed("the in-process workers are off (VITRINE_INPROCESS_WORKERS=false) and there is no Redis")
        age = time.monotonic() - periodic.last_round
        if age > stale:
            raise CheckFailed(f"the in-process periodic loop last ran {age:.0f} s ago (limit {stale:g} s)")
        return f"in-process, periodic loop ran {age:.1f} s ago"

    return from_redis if runtime.redis is not None else embedded


def web_probes(runtime: Runtime, periodic: Any) -> dict[str, Probe]:
    probes: dict[str, Probe] = {"database": database}
    if runtime.redis is not None:
        probes["redis"] = redis_probe(runtime.redis)
    probes["call_log"] = call_log_probe(runtime)
    probes["workers"] = workers_probe(runtime, periodic)
    return probes


# -- the worker processes' heartbeat --------------------------------------------------------------


def heartbeat_member(pid: int | None = None, parent: int | None = None) -> str:
    """host:parent pid:pid — the parent is the `vitrine worker` command that started the process."""
    return f"{socket.gethostname()}:{parent or os.getppid()}:{pid or os.getpid()}"


class Heartbeat:
    """Every `worker_heartbeat_seconds`, this worker process proves its event loop turns, its
    database answers and Redis takes writes: it puts its member in the deployment's sorted set
    with the time as the score. Entries far older than the stale limit are removed by each beat."""

    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.settings = settings
        self.key = heartbeats_key(settings)
        self.member = heartbeat_member()
        self._task: asyncio.Task | None = None

    async def beat(self) -> bool:
        check = await run_check("database", database, self.settings.health_timeout_seconds)
        if not check.ok:
            log.warning("worker heartbeat skipped: the database did not answer (%s)", check.detail)
            return False
        now = time.time()
        keep = self.settings.worker_heartbeat_stale_seconds * 10
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self.key, {self.member: now})
            pipe.zremrangebyscore(self.key, "-inf", now - keep)
            pipe.expire(self.key, int(keep))
            await pipe.execute()
        return True

    async def _loop(self) -> None:
        while True:
            try:
                await self.beat()
            except Exception as exc:  # Redis away: the readiness checks will say so
                log.warning("worker heartbeat failed: %s", exc)
            await asyncio.sleep(self.settings.worker_heartbeat_seconds)

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="worker-heartbeat")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(Exception):  # stopping anyway: a stale entry ages out by itself
            await self.redis.zrem(self.key, self.member)


# -- the web routes --------------------------------------------------------------------------------


@dataclass
class InProcessWorkers:
    periodic: Any = None  # the periodic loop (tasks/scheduler.py), once this web process runs it


def add_routes(app: web.Application, runtime: Runtime, in_process: InProcessWorkers) -> None:
    async def alive(request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"}, headers={"Cache-Control": "no-store"})

    async def ready(request: web.Request) -> web.Response:
        probes = web_probes(runtime, in_process.periodic)
        status, body = await run_checks(probes, runtime.settings.health_timeout_seconds)
        return web.json_response(body, status=status, headers={"Cache-Control": "no-store"})

    app.router.add_get("/health", alive)
    app.router.add_get("/health/ready", ready)
