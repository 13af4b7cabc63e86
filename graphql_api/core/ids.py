"""Identifiers: a type prefix plus a time-ordered opaque id (a ULID, 26 characters)."""

import secrets
import string
from collections.abc import Awaitable, Callable
from typing import TypeVar

from ulid import ULID

T = TypeVar("T")


def new_id(prefix: str) -> str:
    # ULIDs sort by creation time, so the id alone orders lists and serves as the cursor.
    return f"{prefix}{str(ULID()).lower()}"


_ALPHANUMERIC = string.ascii_letters + string.digits


def random_token(length: int) -> str:
    """A secret of `length` characters from [A-Za-z0-9] (about 5.95 bits each)."""
    return "".join(secrets.choice(_ALPHANUMERIC) for _ in range(length))


def pode_existir(value: str, prefixo: str) -> bool:
    """Whether `value` has the shape of an id made by new_id(prefixo). Anything else names nothing,
    so it is answered as not found without asking the database (a longer value than the column, or
    a NUL byte, would make the database refuse the query)."""
    corpo = value[len(prefixo) :]
    return (
        value.startswith(prefixo)
        and len(corpo) == 26
        and corpo.isascii()
        and corpo.isalnum()
        and corpo == corpo.lower()
    )


async def encontrar(id_: str, prefixo: str, buscar: Callable[[], Awaitable[T | None]], descricao: str) -> T:
    """What `buscar()` finds for `id_`, or NOT_FOUND saying `descricao` (the integrator's words).
    An id that cannot exist (`pode_existir`) is NOT_FOUND without a query."""
    from graphql_api.core.errors import ApiError

    found = await buscar() if pode_existir(id_, prefixo) else None
    if found is None:
        raise ApiError("NOT_FOUND", description=descricao)
    return found
