"""The one reader of JSON bodies from outside (the facade's request bodies, a payment provider's
confirmation): well-formed, interoperable JSON objects — what any other library reads the same way
— or a 4xx from the catalog, never an exception of the parser's.

400 INVALID_JSON: not JSON, not UTF-8, not an object, NaN/Infinity, a lone surrogate (\\ud800),
nesting beyond MAX_DEPTH, or a key repeated in one object (a parser keeping the first value would
read another request than one keeping the last). 422 VALIDATION_FAILED naming the field: a
number beyond 64 bits or infinite (1e400)."""

from __future__ import annotations

import json
import math
from typing import Any

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.validation import field_path

# Deeper bodies are refused: no contract body goes past 4 levels, and a recursive walk of 1,000
# levels (the parser itself, masking for the call log, validation) exhausts the stack.
MAX_DEPTH = 64
MIN_INT, MAX_INT = -(2**63), 2**63 - 1  # what a 64-bit column, orjson and every JSON library hold


def _refuse_constant(name: str):
    raise ValueError(f"{name} não é um número JSON")


def _number(text: str) -> int | float:
    """JSON has one number type: 4.0 is the integer 4 (JSON Schema agrees), so an integer field
    takes it. Beyond 2**53 a float is not exact, and stays a float."""
    value = float(text)
    return int(value) if value.is_integer() and abs(value) <= 2**53 else value


class _RepeatedKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return obj


def _shown(key: str) -> str:
    """A key as an error description can quote it: short, printable, encodable."""
    key = key[:100]
    try:
        key.encode()
    except UnicodeEncodeError:
        return ascii(key)
    return key if key.isprintable() else ascii(key)


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


def parse_object(raw: bytes) -> dict[str, Any]:
    """The JSON object of a body, or the ApiError that refuses it (see the module's docstring)."""
    try:
        data = json.loads(raw, parse_constant=_refuse_constant, parse_float=_number, object_pairs_hook=_object)
    except RecursionError:  # far deeper than the limit: the parser ran out of stack
        raise _too_deep() from None
    except _RepeatedKey as repeated:
        raise ApiError(
            "INVALID_JSON",
            description=f'A chave "{_shown(repeated.key)}" aparece mais de uma vez no mesmo objeto JSON; '
            "envie cada chave uma vez só.",
        ) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError("INVALID_JSON", description=f"JSON inválido: {exc}.") from None
    if not isinstance(data, dict):
        raise ApiError("INVALID_JSON", description="O corpo deve ser um objeto JSON ({…}).")
    _check_values(data)
    return data
