"""405 by the declared paths: a URL that matches a declared path template (its parameters under
their patterns) but not with this method is answered 405 with that path's Allow, even when a
wider route would take it (GET /avisos/teste is not GET /avisos/{avisoId}: "teste" is no id)."""

from aiohttp import web

from rest_v1.keys import METHODS
from rest_v1.routing import API_PREFIX


@web.middleware
async def method_middleware(request: web.Request, handler):
    allowed = request.app[METHODS].allowed(request.path.removeprefix(API_PREFIX))
    if allowed and request.method not in allowed:
        raise web.HTTPMethodNotAllowed(request.method, allowed)
    return await handler(request)
