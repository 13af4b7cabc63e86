"""Identifiers: a type prefix plus a time-ordered opaque id (a ULID, 26 characters)."""

import secrets
import string
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TypeVar

from ulid import ULID

from graphql_api.core.errors import ApiError

T = TypeVar("T")


# A ULID's text is its 128 bits in Crockford's base 32, 26 characters of 5 bits (the first holds
# only 3). Two characters at a time: 13 lookups in a table of the 1,024 pairs.
_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"
_PARES = tuple(a + b for a in _CROCKFORD for b in _CROCKFORD)
_DESLOCAMENTOS = tuple(range(120, -1, -10))


def _texto_ulid(valor: int) -> str:
    return "".join([_PARES[valor >> deslocamento & 1023] for deslocamento in _DESLOCAMENTOS])


def new_id(prefix: str, momento: datetime | None = None) -> str:
    """ULIDs sort by creation time, so the id alone orders lists and serves as the cursor.
    `momento`: a row dated by the domain's clock rather than now (a ledger entry of a plan's turn)
    gets that moment's millisecond, so its id still agrees with its date and a date filter is an
    id range. Within the millisecond, the real creation order decides (nanoseconds, then chance).
    Every request makes at least one (its req_ id), so the text is built from a table of pairs
    rather than by the ulid package."""
    agora = time.time_ns()
    milissegundo = agora // 1_000_000 if momento is None else int(momento.timestamp() * 1000)
    resto = (agora & (2**64 - 1)) << 16 | secrets.randbits(16)
    return f"{prefix}{_texto_ulid(milissegundo << 80 | resto)}"


# How far apart an id's own moment and the row's criado_em may lie (the id is made when the work
# starts, the row is written later): a time filter read as an id range is widened by this much,
# and the exact comparison on criado_em still decides.
FOLGA_DO_MOMENTO = timedelta(minutes=5)


def id_do_momento(prefixo: str, momento: datetime, folga: timedelta = timedelta(0)) -> str:
    """The smallest id new_id(prefixo) can make at `momento` + `folga`. A ULID starts with its
    millisecond, so a time window is an id range: read off any index that ends in the id, a filter
    by date costs the rows in the window, not the whole history. Computed in milliseconds, so the
    calendar's ends (year 1, year 9999) stay in range."""
    milissegundo = int(momento.timestamp() * 1000) + int(folga / timedelta(milliseconds=1))
    milissegundo = min(max(milissegundo, 0), 2**48 - 1)  # before 1970: the first id
    return f"{prefixo}{str(ULID.from_int(milissegundo << 80))[:10].lower()}{'0' * 16}"


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
    found = await buscar() if pode_existir(id_, prefixo) else None
    if found is None:
        raise ApiError("NOT_FOUND", description=descricao)
    return found
