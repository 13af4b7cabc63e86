"""The OpenAPI 3.1 document of /v1 (filled in by rest_v1/openapi_spec.py)."""

from aiohttp import web

from rest_v1.keys import RUNTIME


async def openapi_document(request: web.Request) -> web.Response:
    from rest_v1.openapi_spec import build

    return web.json_response(build(request.app[RUNTIME].settings))
