"""The aiohttp application factory: the composition root of the web process."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from graphql_api import operations
from oauth.endpoints import add_routes as add_oauth_routes
from portal.app import add_routes as add_portal_routes
from portal.web import not_found_page
from rest_v1.app import create_v1_app
from rest_v1.pagamentos import add_routes as add_payment_routes
from vitrine import db, docs_site, health, http_server, logs, media_routes, observability, staff_graphql
from vitrine.infra import client_address
from vitrine.keys import RUNTIME
from vitrine.request_body import body_deadline
from vitrine.runtime import Runtime
from vitrine.settings import Settings
from vitrine.templating import STATIC_DIR
from vitrine.tuning import tune_gc

log = logging.getLogger("vitrine")

MAX_REQUEST_BODY = 1024 * 1024


async def _stop_inprocess_tasks(broker) -> None:
    """Tasks still running inside this process stop with it rather than outlive its database
    connection; each one's work is a database row that a recovery sweep picks up again."""
    running = list(getattr(broker, "_running_tasks", ()))  # InMemoryBroker only
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)


def create_app(settings: Settings | None = None, *, migrate: bool = False) -> web.Application:
    settings = settings or Settings()
    operations.check()  # every door's shared GraphQL documents, against the schema: fail fast
    runtime = Runtime.build(settings)
    logs.install_scopes()  # every log line of a request carries its req_ id (vitrine/observability.py)
    # observe first: it times and counts every answer; then the client's address; then
    # body_deadline, which bounds every door's body read (vitrine/request_body.py).
    middlewares = [observability.observe, body_deadline, not_found_page]
    if settings.trusted_proxy_networks:  # no cost on a request unless the service sits behind proxies
        middlewares.insert(1, client_address.middleware(settings.trusted_proxy_networks))
    app = web.Application(client_max_size=MAX_REQUEST_BODY, middlewares=middlewares)
    app[RUNTIME] = runtime
    in_process = health.InProcessWorkers()

    async def database(app: web.Application):
        if migrate:
            await db.migrate(settings)
        context = await db.connect(settings)
        yield
        await context.close_connections()

    async def runtime_services(app: web.Application):
        await runtime.start()
        yield
        await runtime.stop()

    async def background_work(app: web.Application):
        # The web process enqueues tasks; in the embedded default it also runs them and the
        # periodic jobs. With Redis, `vitrine worker` processes do both.
        from tasks import maintenance
        from tasks.broker import broker, wire_task_port
        from tasks.scheduler import PeriodicJobs

        wire_task_port()
        broker.state.runtime = runtime
        await broker.startup()
        periodic = PeriodicJobs(maintenance.periodic(settings), runtime.redis, key_prefix=settings.redis_key("agenda"))
        if settings.runs_inprocess_workers:
            periodic.start()
            in_process.periodic = periodic  # the readiness check's view of the in-process workers
        tune_gc()
        yield
        await periodic.stop()
        await _stop_inprocess_tasks(broker)
        await broker.shutdown()

    app.cleanup_ctx.append(database)
    app.cleanup_ctx.append(runtime_services)
    app.cleanup_ctx.append(background_work)
    app.add_subapp("/v1", create_v1_app(runtime))
    health.add_routes(app, runtime, in_process)  # the service's own, outside the API contract
    observability.add_metrics_route(app, runtime)
    add_oauth_routes(app)
    add_payment_routes(app)
    docs_site.add_routes(app)
    media_routes.add_routes(app)
    staff_graphql.add_routes(app)
    app.router.add_static("/static", STATIC_DIR)
    add_portal_routes(app)
    return app


def run_web(app: web.Application, host: str, port: int, *, reuse_port: bool = False) -> None:
    """Serve the application until interrupted, with the connection's bounds (vitrine/http_server.py)."""
    http_server.serve(app, host, port, reuse_port=reuse_port)
