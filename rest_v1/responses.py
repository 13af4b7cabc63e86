"""Response bodies of the contract: {"data": …}, lists with "paginacao", errors with "error"."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from graphql_api.core.errors import ApiError
from rest_v1.keys import API_ERROR, RUNTIME


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def ok(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"data": data}, status=status, headers=headers, dumps=dumps)


def page(result: dict[str, Any]) -> web.Response:
    """A GraphQL Pagina ({itens, paginacao}) as the contract's list body."""
    return web.json_response(
        {"data": result["itens"], "paginacao": result["paginacao"]}, dumps=dumps
    )


def error_response(request: web.Request, error: ApiError) -> web.Response:
    request[API_ERROR] = error
    docs_url = request.app[RUNTIME].settings.docs_url
    return web.json_response(
        error.body(docs_url), status=error.status, headers=error.headers, dumps=dumps
    )
