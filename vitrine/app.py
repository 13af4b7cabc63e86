"""The aiohttp application factory: the composition root of the web process."""

from __future__ import annotations

import logging

from aiohttp import web

from rest_v1.app import create_v1_app
from rest_v1.keys import RUNTIME
from vitrine import db
from vitrine.runtime import Runtime
from vitrine.settings import Settings
from vitrine.tuning import tune_gc

log = logging.getLogger("vitrine")

MAX_REQUEST_BODY = 1024 * 1024


def create_app(settings: Settings | None = None, *, migrate: bool = False) -> web.Application:
    settings = settings or Settings()
    runtime = Runtime.build(settings)
    app = web.Application(client_max_size=MAX_REQUEST_BODY)
    app[RUNTIME] = runtime

    async def database(app: web.Application):
        if migrate:
            await db.migrate(settings)
        context = await db.connect(settings)
        yield
        await context.close_connections()

    async def runtime_services(app: web.Application):
        await runtime.start()
        tune_gc()
        yield
        await runtime.stop()

    app.cleanup_ctx.append(database)
    app.cleanup_ctx.append(runtime_services)
    app.add_subapp("/v1", create_v1_app(runtime))
    return app
