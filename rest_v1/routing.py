"""Route templates as the contract and the call log name them (without the /v1 prefix)."""

from aiohttp import web

API_PREFIX = "/v1"


def endpoint_template(request: web.Request) -> str:
    route = request.match_info.route
    resource = route.resource if route is not None else None
    path = resource.canonical if resource is not None else request.path
    return path.removeprefix(API_PREFIX) or "/"
