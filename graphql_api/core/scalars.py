"""Scalars shared by every domain."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import NewType

import strawberry


def format_timestamp(value: datetime) -> str:
    """ISO 8601 in UTC with a Z, to the millisecond: the contract's <timestamp>."""
    if value.tzinfo is not None and value.utcoffset():
        value = value.astimezone(timezone.utc)
    # naive means UTC; the first 23 characters are the date and time without any offset
    return value.isoformat(timespec="milliseconds")[:23] + "Z"


def parse_timestamp(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(timezone.utc)


Timestamp = NewType("Timestamp", datetime)

# Joined into the schema's StrawberryConfig(scalar_map=...) in graphql_api/schema.py.
SCALAR_MAP = {
    Timestamp: strawberry.scalar(
        name="Timestamp",
        serialize=format_timestamp,
        parse_value=parse_timestamp,
        description="ISO 8601 UTC timestamp, e.g. 2026-11-21T23:57:35.120Z",
    )
}
