"""Scalars shared by every domain."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, NewType

import strawberry
from strawberry.types.scalar import ScalarDefinition


@lru_cache(maxsize=4096)
def format_timestamp(value: datetime) -> str:
    """ISO 8601 in UTC with a Z, to the millisecond: the contract's <timestamp>. Remembered: a
    response repeats the same moments (a gallery's links all expire at one minute, a row's dates
    are read again and again), and a lookup is cheaper than the formatting."""
    if value.tzinfo is not None and value.utcoffset():
        value = value.astimezone(UTC)
    # naive means UTC; the first 23 characters are the date and time without any offset
    return value.isoformat(timespec="milliseconds")[:23] + "Z"


def parse_timestamp(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)


def parse_int64(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not -(2**63) <= value < 2**63:
        raise ValueError("Inteiro64 takes an integer of at most 64 bits")
    return value


if TYPE_CHECKING:
    # To the type checker they are plain datetime/int; the NewTypes only tell strawberry which
    # scalar a field has, so types take model values without a wrapping call.
    Timestamp = datetime
    Inteiro64 = int
else:
    Timestamp = NewType("Timestamp", datetime)
    Inteiro64 = NewType("Inteiro64", int)

# Joined into the schema's StrawberryConfig(scalar_map=...) in graphql_api/schema.py.
SCALAR_MAP: dict[object, ScalarDefinition] = {
    Timestamp: strawberry.scalar(
        name="Timestamp",
        serialize=format_timestamp,
        parse_value=parse_timestamp,
        description="ISO 8601 UTC timestamp, e.g. 2026-11-21T23:57:35.120Z",
    ),
    Inteiro64: strawberry.scalar(
        name="Inteiro64",
        serialize=int,
        parse_value=parse_int64,
        description="An integer of up to 64 bits (a JSON number), beyond GraphQL's 32-bit Int.",
    ),
}
