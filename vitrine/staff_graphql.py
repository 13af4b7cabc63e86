"""/graphql: the internal GraphQL API over HTTP, for service staff only (staff tokens from
`vitrine staff create`). API keys and OAuth tokens are refused at the door; every field also
checks the staff principal inside the schema."""

from __future__ import annotations

from aiohttp import web
from strawberry.aiohttp.views import GraphQLView
from strawberry.http import GraphQLHTTPResponse
from strawberry.types import ExecutionResult

from graphql_api.core.context import Context
from graphql_api.core.errors import ApiError
from graphql_api.core.principal import Principal
from graphql_api.equipe import service as equipe
from graphql_api.schema import schema
from vitrine.keys import RUNTIME

STAFF = web.RequestKey("staff_principal", Principal)


class _StaffView(GraphQLView[Context, None]):
    async def get_context(self, request: web.Request, response: web.StreamResponse) -> Context:
        return Context(runtime=request.app[RUNTIME], principal=request[STAFF])

    async def process_result(self, request: web.Request, result: ExecutionResult) -> GraphQLHTTPResponse:
        data: GraphQLHTTPResponse = {"data": result.data}
        if result.errors:
            errors: list[object] = []
            for error in result.errors:
                formatted = error.formatted
                if isinstance(error.original_error, ApiError):
                    formatted["extensions"] = error.original_error.extensions()
                errors.append(formatted)
            data["errors"] = errors
        return data


_view = _StaffView(schema=schema, graphql_ide=None, allow_queries_via_get=False)


def _refuse(request: web.Request, error: ApiError) -> web.Response:
    return web.json_response(error.body(request.app[RUNTIME].settings.docs_url), status=error.status)


async def staff_graphql(request: web.Request) -> web.StreamResponse:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return _refuse(
            request, ApiError("UNAUTHORIZED", description="Envie Authorization: Bearer stf_… (credencial de equipe).")
        )
    if token.startswith(("sk_", "oat_")):
        return _refuse(
            request,
            ApiError(
                "FORBIDDEN", description="/graphql é da equipe do serviço: chaves de API e tokens OAuth usam /v1."
            ),
        )
    try:
        request[STAFF] = await equipe.autenticar(token)
    except ApiError as error:
        return _refuse(request, error)
    return await _view(request)


def add_routes(app: web.Application) -> None:
    app.router.add_route("POST", "/graphql", staff_graphql)
