"""Route registration for the facade: each handler module declares its routes with the facts the
OpenAPI document needs (summary, body schema, response type, error types), in one place."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

from graphql_api.chamada.writer import TipoChamada
from graphql_api.core.pagination import MAX_LIMIT
from graphql_api.core.validation import SEM_CONTROLE_SCHEMA
from graphql_api.produto.service import MAX_CODIGO

API_PREFIX = "/v1"


def id_schema(prefix: str) -> dict[str, Any]:
    """An id of one kind: its prefix and 26 lowercase ULID characters (graphql_api/core/ids.py)."""
    return {"type": "string", "pattern": f"^{prefix}[0-9a-z]{{26}}$", "maxLength": len(prefix) + 26}


def text_schema(max_length: int) -> dict[str, Any]:
    """An identifier-like filter: at most the column's length, no control characters."""
    return {"type": "string", "minLength": 1, "maxLength": max_length} | SEM_CONTROLE_SCHEMA


def enum_schema(*values: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


# A moment filter (de, ate): a date (the whole day) or a timestamp (graphql_api/core/momentos.py).
MOMENT_SCHEMA: dict[str, Any] = {"type": "string", "anyOf": [{"format": "date"}, {"format": "date-time"}]}


# Every path parameter of the facade, by name: the OpenAPI document declares these, and a 405
# lists the methods of the path templates a URL really matches under them.
PATH_PARAMETERS: dict[str, dict[str, Any]] = {
    "contaId": id_schema("cta_"),
    "produtoId": id_schema("prd_"),
    "geracaoId": id_schema("ger_"),
    "imagemId": id_schema("img_"),
    "requestId": id_schema("req_"),
    "avisoId": id_schema("avs_"),
    "entregaId": id_schema("ent_"),
    "testeId": id_schema("tst_"),
    "recargaId": id_schema("rec_"),
    "escutaId": id_schema("esc_"),
    # A SKU: 1 to MAX_CODIGO characters, none a control character; "/" cannot travel in a segment.
    "codigo": {"type": "string", "pattern": f"^[^\\u0000-\\u001f\\u007f/]{{1,{MAX_CODIGO}}}$"},
}

LIMITE_SCHEMA = {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT}


def page_parameters(cursor_prefix: str) -> dict[str, dict[str, Any]]:
    """Query parameters of a cursor-paginated list whose items are ids with this prefix."""
    return {"limite": LIMITE_SCHEMA, "cursor": id_schema(cursor_prefix)}


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
    body_required: bool = True  # False when the handler reads the body with request.get(JSON_BODY)
    # The GraphQL fragment (graphql_api/operations/fragments.py) the handler selects for `data`; its schema is
    # derived from that selection, so the document shows exactly the fields the answer carries.
    response: str | None = None
    # Fields of other GraphQL types the handler adds to `data` when present: (("Type", "field"),)
    response_extra: tuple[tuple[str, str], ...] = ()
    list_response: bool = False
    # A response that is not the contract's JSON body (the server-sent events of a listening
    # session): the document declares this media type, with `description` saying what flows.
    media_type: str = "application/json"
    sse_events: tuple[str, ...] = ()  # text/event-stream: the names of the events it sends
    paginated: bool = True  # a list_response with "paginacao" (cursor pagination)
    errors: tuple[str, ...] = ()  # catalog types this route can answer
    query: dict[str, dict] = field(default_factory=dict)  # query parameter -> its JSON schema
    public: bool = False
    description: str = ""
    extra: dict = field(default_factory=dict)
    # The route spends credits: Idempotency-Key becomes required (middleware and document).
    spends_credits: bool = False
    # Idempotency-Key required without spending credits (POST /recargas buys them): the same rule
    # for the caller, but the call is not one the IDEMPOTENCIA integration step judges.
    idempotency_required: bool = False
    # What else a call of this route is, for those who judge the call log (integration steps).
    kind: TipoChamada | None = None
    # The contract's scope the route needs (Scopes table). API keys hold every scope; an OAuth
    # token without it gets 403 FORBIDDEN naming it, before the body is read.
    scope: str | None = None
    # OAuth rule 5: the integrator's own routes. An OAuth token gets 403 FORBIDDEN, before the body.
    integrator_only: bool = False

    @property
    def requires_idempotency_key(self) -> bool:
        return self.spends_credits or self.idempotency_required

    @property
    def call_kind(self) -> TipoChamada | None:
        """What a call of this route was, as its call record carries it."""
        return TipoChamada.GASTA_CREDITOS if self.spends_credits else self.kind


class Routes:
    def __init__(self, tag: str, **defaults: Any) -> None:
        """`defaults`: RouteSpec fields every route of the module shares (e.g. its scope)."""
        self.tag = tag
        self.defaults = defaults
        self.specs: list[RouteSpec] = []

    def _add(self, method: str, path: str, **spec: Any) -> Callable:
        def register(handler: Callable) -> Callable:
            fields = self.defaults | spec
            self.specs.append(RouteSpec(method=method, path=path, handler=handler, tag=self.tag, **fields))
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


def path_parameters(path: str) -> list[str]:
    return re.findall(r"\{(\w+)\}", path)


class MethodTable:
    """The methods each URL path allows, from the declared path templates and their parameter
    patterns (so /avisos/teste is its own path, not an avisoId): the Allow header of a 405."""

    def __init__(self, specs: Iterable[RouteSpec]) -> None:
        self._templates: dict[str, tuple[re.Pattern, set[str]]] = {}
        self._specs: dict[tuple[str, str], RouteSpec] = {}
        for spec in specs:
            self._specs[(spec.method, spec.path)] = spec
            if spec.path not in self._templates:
                self._templates[spec.path] = (self._compile(spec.path), set())
            methods = self._templates[spec.path][1]
            methods.add(spec.method)
            if spec.method == "GET":
                methods.add("HEAD")  # aiohttp answers HEAD on every GET route
        # Grouped by their first segment, always literal: a path is tried against its own group.
        self._grouped: dict[str, list[tuple[re.Pattern, set[str]]]] = {}
        for template, entry in self._templates.items():
            if "{" in _first_segment(template):
                raise ValueError(f"a path template must start with a literal segment: {template}")
            self._grouped.setdefault(_first_segment(template), []).append(entry)

    @staticmethod
    def _compile(path: str) -> re.Pattern:
        parts = re.split(r"(\{\w+\})", path)
        regex = "".join(
            "(?:" + PATH_PARAMETERS[part[1:-1]]["pattern"].removeprefix("^").removesuffix("$") + ")"
            if part.startswith("{")
            else re.escape(part)
            for part in parts
        )
        return re.compile(regex)

    def spec_of(self, request: web.Request) -> RouteSpec | None:
        """The spec of the route the request matched (HEAD is its GET), None when none did."""
        method = "GET" if request.method == "HEAD" else request.method
        return self._specs.get((method, endpoint_template(request)))

    def template_of(self, path: str) -> str | None:
        """The declared template the path matches (its first), None when it matches none."""
        for template, (regex, _) in self._templates.items():
            if _first_segment(template) == _first_segment(path) and regex.fullmatch(path):
                return template
        return None

    def allowed(self, path: str) -> set[str]:
        """Methods of every template the path matches; empty when it matches none. Only the
        templates of the path's first segment are tried (every request asks this)."""
        methods: set[str] = set()
        for regex, template_methods in self._grouped.get(_first_segment(path), ()):
            if regex.fullmatch(path):
                methods |= template_methods
        return methods


def _first_segment(path: str) -> str:
    return path.split("/", 2)[1] if path.startswith("/") else ""


_Middleware = TypeVar("_Middleware", bound=Callable[..., Any])

# What each middleware declared (see declares), by the middleware function itself.
DECLARED_ERRORS: dict[Callable[..., Any], Callable[[RouteSpec], tuple[str, ...]]] = {}


def declares(errors_for: Callable[[RouteSpec], tuple[str, ...]]) -> Callable[[_Middleware], _Middleware]:
    """Marks a middleware with the catalog error types it can answer on a route: the OpenAPI
    document adds them to each operation from the same rule the middleware applies."""

    def mark(middleware: _Middleware) -> _Middleware:
        DECLARED_ERRORS[middleware] = errors_for
        return middleware

    return mark
