"""How a REST handler talks to the internal API: run an operation in the request's context."""

from collections.abc import Collection
from typing import Any

from aiohttp import web

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.pagination import MAX_LIMIT
from graphql_api.executor import Operation, run
from rest_v1.keys import CONTEXT, JSON_BODY


async def execute(request: web.Request, operation: Operation, **variables: Any) -> dict[str, Any]:
    return await run(operation, request[CONTEXT], variables)


def body(request: web.Request) -> dict[str, Any]:
    data = request.get(JSON_BODY)
    if data is None:
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[FieldError("corpo", "obrigatorio", "Envie um objeto JSON no corpo da requisição.")],
        )
    return data


def query_params(request: web.Request, allowed: Collection[str]) -> dict[str, str]:
    """Query parameters, refusing unknown ones (a typo in a filter must not pass silently)."""
    unknown = [name for name in request.query if name not in allowed]
    if unknown:
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[FieldError(name, "desconhecido", "Parâmetro desconhecido.") for name in unknown],
        )
    return {name: request.query[name] for name in request.query}


def page_variables(params: dict[str, str]) -> dict[str, Any]:
    limite = params.pop("limite", None)
    cursor = params.pop("cursor", None)
    # ASCII digits only (str.isdigit also takes '１' and '²'), and bounded before it becomes a
    # GraphQL Int (32 bits): a huge value is the caller's mistake, not an overflow.
    if limite is not None and not (
        limite.isascii() and limite.isdigit() and len(limite) <= 3 and 1 <= int(limite) <= MAX_LIMIT
    ):
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[FieldError("limite", "fora_do_intervalo", f"Use um inteiro de 1 a {MAX_LIMIT}.")],
        )
    return {"limite": int(limite) if limite is not None else None, "cursor": cursor}
