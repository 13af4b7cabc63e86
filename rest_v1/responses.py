"""Response bodies of the contract: {"data": …}, lists with "paginacao", errors with "error"."""

from __future__ import annotations

from typing import Any

import orjson
from aiohttp import web

from graphql_api.core.errors import ApiError
from rest_v1.keys import API_ERROR
from vitrine.keys import RUNTIME


def json_body(value: Any) -> bytes:
    """Compact UTF-8 JSON. orjson: every response of the facade's hot path is encoded here."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def json_response(value: Any, *, status: int = 200, headers: Any = None) -> web.Response:
    return web.Response(
        body=json_body(value), status=status, headers=headers, content_type="application/json", charset="utf-8"
    )


def ok(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return json_response({"data": data}, status=status, headers=headers)


def page(result: dict[str, Any]) -> web.Response:
    """A GraphQL Pagina ({itens, paginacao}) as the contract's list body."""
    return json_response({"data": result["itens"], "paginacao": result["paginacao"]})


def error_response(request: web.Request, error: ApiError) -> web.Response:
    request[API_ERROR] = error
    docs_url = request.app[RUNTIME].settings.docs_url
    return json_response(error.body(docs_url), status=error.status, headers=error.headers)
