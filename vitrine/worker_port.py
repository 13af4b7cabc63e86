"""The `vitrine worker` command's own port (VITRINE_WORKER_PORT, off by default): GET /health,
/health/ready and /metrics for the worker processes it runs, served by the command's process
itself (taskiq's process manager, which runs no task) from a thread, with the standard library's
HTTP server: three small answers do not need an event loop of their own.

- /health: the command's process answers.
- /health/ready: Redis answers, and every worker process this command started wrote its heartbeat
  within VITRINE_WORKER_HEARTBEAT_STALE_SECONDS (a process writes it only after its database
  answered: vitrine/health.py, `Heartbeat`).
- /metrics: with `Authorization: Bearer <VITRINE_METRICS_TOKEN>`, the sum of its worker processes'
  metrics (prometheus-client's multiprocess mode: vitrine/metrics.py); without a token set, 404.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast

import redis

from vitrine.settings import Settings


def _check(name: str, probe) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        detail, ok = probe(), True
    except CheckFailed as exc:
        detail, ok = str(exc), False
    except Exception as exc:
        detail, ok = f"{type(exc).__name__}: {exc}"[:300], False
    body: dict[str, Any] = {
        "name": name,
        "status": "ok" if ok else "fail",
        "latency_ms": round((time.perf_counter() - started) * 1000, 2),
    }
    if detail:
        body["detail"] = detail
    return body


class CheckFailed(Exception):
    pass


class WorkerHealth:
    def __init__(self, settings: Settings, workers: int) -> None:
        from vitrine.health import heartbeats_key

        self.settings = settings
        self.workers = workers
        self.key = heartbeats_key(settings)
        timeout = settings.health_timeout_seconds
        assert settings.redis_url
        self.redis = redis.Redis.from_url(settings.redis_url, socket_timeout=timeout, socket_connect_timeout=timeout)

    def ready(self) -> tuple[int, dict[str, Any]]:
        checks = [_check("redis", self._redis), _check("workers", self._heartbeats)]
        ok = all(check["status"] == "ok" for check in checks)
        return (200 if ok else 503), {"status": "ok" if ok else "fail", "checks": checks}

    def _redis(self) -> None:
        self.redis.ping()

    def _heartbeats(self) -> str:
        stale = self.settings.worker_heartbeat_stale_seconds
        members = cast(list[bytes], self.redis.zrangebyscore(self.key, time.time() - stale, "+inf"))
        mine = f"{socket.gethostname()}:{os.getpid()}:".encode()
        alive = sum(1 for member in members if member.startswith(mine))
        if alive < self.workers:
            raise CheckFailed(f"{alive} of {self.workers} worker processes wrote a heartbeat in the last {stale:g} s")
        return f"{alive} of {self.workers} worker processes alive"


def serve(settings: Settings, workers: int) -> ThreadingHTTPServer:
    """Start the port in a daemon thread of this process; returns the server (to shut it down)."""
    from vitrine import metrics

    health = WorkerHealth(settings, workers)
    token = settings.metrics_token

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/health":
                self._json(200, {"status": "ok"})
            elif path == "/health/ready":
                self._json(*health.ready())
            elif path == "/metrics" and token:
                if not metrics.authorized(self.headers.get("Authorization"), token):
                    self._json(401, {"status": "fail", "detail": "GET /metrics needs Authorization: Bearer <token>"})
                    return
                body, content_type = metrics.exposition()
                self._send(200, body, content_type)
            else:
                self._json(404, {"status": "fail", "detail": "not found"})

        def _json(self, status: int, body: dict[str, Any]) -> None:
            self._send(status, json.dumps(body).encode(), "application/json")

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            if status == 401:
                self.send_header("WWW-Authenticate", 'Bearer realm="metrics"')
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # no access log: a probe every second would fill it

    server = ThreadingHTTPServer((settings.host, settings.worker_port or 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="worker-port", daemon=True).start()
    return server
