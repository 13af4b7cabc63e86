"""Route registration for the facade: each handler module declares its routes with the facts the
OpenAPI document needs (summary, body schema, response type, error types), in one place."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

API_PREFIX = "/v1"


def endpoint_template(request: web.Request) -> str:
    route = request.match_info.route
    resource = route.resource if route is not None else None
    path = resource.canonical if resource is not None else request.path
    return path.removeprefix(API_PREFIX) or "/"


@dataclass(frozen=True)
class RouteSpec:
    method: str
    path: str
    handler: Callable
    summary: str
    tag: str
    status: int = 200
    # Other success statuses with the same body, and what each means: ((202, "…"),)
    also: tuple[tuple[int, str], ...] = ()
    body: Any = None  # a pydantic model (its JSON schema) or a JSON-schema dict
    response: str | None = None  # GraphQL type name of `data` (its schema comes from the schema)
    list_response: bool = False
    paginated: bool = True  # a list_response with "paginacao" (cursor pagination)
    errors: tuple[str, ...] = ()  # catalog types this route can answer
    query: tuple[str, ...] = ()  # query parameters
    public: bool = False
    description: str = ""
    extra: dict = field(default_factory=dict)


class Routes:
    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.specs: list[RouteSpec] = []

    def _add(self, method: str, path: str, **spec: Any) -> Callable:
        def register(handler: Callable) -> Callable:
            self.specs.append(RouteSpec(method=method, path=path, handler=handler, tag=self.tag, **spec))
            return handler

        return register

    def get(self, path: str, **spec: Any) -> Callable:
        return self._add("GET", path, **spec)

    def post(self, path: str, **spec: Any) -> Callable:
        return self._add("POST", path, **spec)

    def put(self, path: str, **spec: Any) -> Callable:
        return self._add("PUT", path, **spec)

    def delete(self, path: str, **spec: Any) -> Callable:
        return self._add("DELETE", path, **spec)

    def aiohttp_routes(self) -> list[web.RouteDef]:
        return [web.route(s.method, s.path, s.handler) for s in self.specs]
