"""The web process's side of watching the service: one root middleware that opens each request's
log scope and counts it in the HTTP metrics, and GET /metrics (docs/operacao.md).

The middleware runs for every request, the facade's included, so it stays small: the route
template comes from the match aiohttp already made, and the metric children of each (route,
method, status class) are looked up once and kept (`labels()` takes a lock and builds a key at
every call). The facade's cost is measured by bench/api_overhead.py (bench/RESULTS.md)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from aiohttp import web

from graphql_api.core.ids import new_id
from rest_v1.keys import CALL_TENANT, REQUEST_ID
from vitrine import metrics
from vitrine.infra import log_context
from vitrine.runtime import Runtime

UNMATCHED = "(unmatched)"  # every path no route took: one series, whatever was asked
_METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
_STATUS_CLASSES = {n: f"{n}xx" for n in range(1, 6)}

_counters: dict[tuple[str, str, int], Callable[[], None]] = {}
_timers: dict[tuple[str, str], Callable[[float], None]] = {}


def _count(route: str, method: str, status: int) -> None:
    key = (route, method, status)
    inc = _counters.get(key)
    if inc is None:
        status_class = _STATUS_CLASSES.get(status // 100, "other") if status else "cancelled"
        inc = _counters[key] = metrics.HTTP_REQUESTS.labels(route, method, status_class).inc
    inc()


def _time(route: str, method: str, seconds: float) -> None:
    key = (route, method)
    observe = _timers.get(key)
    if observe is None:
        observe = _timers[key] = metrics.HTTP_DURATION.labels(route, method).observe
    observe(seconds)


def _route_template(request: web.Request) -> str:
    route = request.match_info.route
    resource = route.resource if route is not None else None
    return resource.canonical if resource is not None else UNMATCHED


def _describer(request: web.Request, scope: log_context.LogScope) -> Callable[[], tuple[str | None, str | None]]:
    """The request's own req_ id once a door gave it one (the facade's), or one made for the log
    at its first line; the integrator once the facade's authentication named it."""

    def describe() -> tuple[str | None, str | None]:
        request_id = request.get(REQUEST_ID)
        if request_id is None and scope.request_id is None:
            scope.request_id = new_id("req_")
        tenant = request.get(CALL_TENANT)
        return request_id, tenant.integrador_id if tenant is not None else None

    return describe


@web.middleware
async def observe(request: web.Request, handler) -> web.StreamResponse:
    scope = log_context.LogScope()
    scope.describe = _describer(request, scope)
    token = log_context.enter(scope)
    started = time.perf_counter()
    status = 500
    try:
        response = await handler(request)
        status = response.status
        return response
    except web.HTTPException as exc:
        status = exc.status
        raise
    except asyncio.CancelledError:
        status = 0  # the client went away first
        raise
    finally:
        route = _route_template(request)
        method = request.method if request.method in _METHODS else "OTHER"
        _count(route, method, status)
        _time(route, method, time.perf_counter() - started)
        log_context.leave(token)


def add_metrics_route(app: web.Application, runtime: Runtime) -> None:
    """GET /metrics, only with a token set (VITRINE_METRICS_TOKEN), only to its bearer."""
    settings = runtime.settings
    token = settings.metrics_token
    if not token:
        return
    sampler = metrics.ProcessSampler(runtime)

    async def scrape(request: web.Request) -> web.Response:
        if not metrics.authorized(request.headers.get("Authorization"), token):
            return web.json_response(
                {"status": "fail", "detail": "GET /metrics needs Authorization: Bearer <VITRINE_METRICS_TOKEN>"},
                status=401,
                headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
            )
        sampler.sample()
        queues = await metrics.QueueFigures.read(settings.health_timeout_seconds)
        body, content_type = metrics.exposition([queues])
        return web.Response(body=body, headers={"Content-Type": content_type, "Cache-Control": "no-store"})

    async def sampling(app: web.Application):
        # The other processes of `serve --processes N` answer scrapes with what this one sampled.
        if metrics.multiprocess_dir() is not None:
            sampler.start()
        yield
        await sampler.stop()

    app.router.add_get("/metrics", scrape)
    app.cleanup_ctx.append(sampling)
