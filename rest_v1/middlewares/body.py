"""Request bodies: at most 1 MB (413), JSON only (415), well-formed, interoperable JSON objects
(400), numbers every system can hold (422)."""

import json
import math

from aiohttp import web

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.validation import field_path
from rest_v1.keys import JSON_BODY, RAW_BODY
from rest_v1.routing import RouteSpec, declares

MAX_BODY = 1024 * 1024
# Deeper bodies are refused: no contract body goes past 4 levels, and a recursive walk of 1,000
# levels (the parser itself, masking for the call log, validation) exhausts the stack.
MAX_DEPTH = 64
MIN_INT, MAX_INT = -(2**63), 2**63 - 1  # what a 64-bit column, orjson and every JSON library hold
_WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _is_json(content_type: str) -> bool:
    return content_type == "application/json" or content_type.endswith("+json")


def _refuse_constant(name: str):
    raise ValueError(f"{name} não é um número JSON")


def _number(text: str) -> int | float:
    """JSON has one number type: 4.0 is the integer 4 (JSON Schema agrees), so an integer field
    takes it. Beyond 2**53 a float is not exact, and stays a float."""
    value = float(text)
    return int(value) if value.is_integer() and abs(value) <= 2**53 else value


def _too_deep() -> ApiError:
    return ApiError("INVALID_JSON", description=f"O JSON passa de {MAX_DEPTH} níveis de aninhamento.")


def _check_values(data: object) -> None:
    """Nesting beyond MAX_DEPTH and strings with lone surrogates (not text in any encoding) are
    400; numbers beyond 64 bits or infinite (1e400) are 422 naming the field. Iterative."""
    stack: list[tuple[object, tuple]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, (dict, list)) and len(path) >= MAX_DEPTH:
            raise _too_deep()
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key)
                stack.append((item, path + (key,)))
        elif isinstance(value, list):
            stack.extend((item, path + (i,)) for i, item in enumerate(value))
        elif isinstance(value, str):
            _check_text(value)
        elif isinstance(value, bool) or value is None:
            continue
        elif (isinstance(value, int) and not MIN_INT <= value <= MAX_INT) or (
            isinstance(value, float) and not math.isfinite(value)
        ):
            raise ApiError(
                "VALIDATION_FAILED",
                fields=[
                    FieldError(field_path(path) or "corpo", "fora_do_intervalo", "Número fora do intervalo de 64 bits.")
                ],
            )


def _check_text(value: str) -> None:
    try:
        value.encode()
    except UnicodeEncodeError:
        raise ApiError(
            "INVALID_JSON", description="O JSON tem um \\u de surrogate sem par: não é texto UTF-8."
        ) from None


def parse_json_object(raw: bytes) -> dict:
    try:
        data = json.loads(raw, parse_constant=_refuse_constant, parse_float=_number)
    except RecursionError:  # far deeper than the limit: the parser ran out of stack
        raise _too_deep() from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError("INVALID_JSON", description=f"JSON inválido: {exc}.") from None
    if not isinstance(data, dict):
        raise ApiError("INVALID_JSON", description="O corpo deve ser um objeto JSON ({…}).")
    _check_values(data)
    return data


def _errors_for(spec: RouteSpec) -> tuple[str, ...]:
    return (
        ("INVALID_JSON", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "VALIDATION_FAILED")
        if spec.method in _WITH_BODY
        else ()
    )


@declares(_errors_for)
@web.middleware
async def body_middleware(request: web.Request, handler):
    if request.method not in _WITH_BODY:
        return await handler(request)
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise ApiError("PAYLOAD_TOO_LARGE")
    if request.body_exists:
        raw = await request.read()  # aiohttp's client_max_size (1 MB) guards chunked bodies
        request[RAW_BODY] = raw
        if raw.strip():
            if not _is_json(request.content_type):
                raise ApiError(
                    "UNSUPPORTED_MEDIA_TYPE", description=f"Content-Type recebido: {request.content_type or 'nenhum'}."
                )
            request[JSON_BODY] = parse_json_object(raw)
    return await handler(request)
