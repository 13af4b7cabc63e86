"""Every response carries X-Request-Id (req_…), errors included."""

import time

from aiohttp import web

from graphql_api.core.ids import new_id
from rest_v1.keys import REQUEST_ID, STARTED


@web.middleware
async def request_id_middleware(request: web.Request, handler):
    request[REQUEST_ID] = new_id("req_")
    request[STARTED] = time.perf_counter()
    return await handler(request)


async def add_request_id_header(request: web.Request, response: web.StreamResponse) -> None:
    request_id = request.get(REQUEST_ID)
    if request_id is not None:
        response.headers["X-Request-Id"] = request_id
