"""Moments in list filters (`de`, `ate`): a date (AAAA-MM-DD, the whole day) or an ISO 8601
timestamp; without a zone, UTC."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from pydantic_core import PydanticCustomError


def parse_moment(value: str, *, end_of_day: bool) -> datetime:
    if len(value) == 10:
        day = date.fromisoformat(value)
        return datetime.combine(day, time.max if end_of_day else time.min, tzinfo=UTC)
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def momento_valido(value: str | None) -> str | None:
    """A pydantic field validator's body: the value unchanged, or formato_invalido saying the formats."""
    if value is not None:
        try:
            parse_moment(value, end_of_day=False)
        except ValueError:
            raise PydanticCustomError(
                "formato_invalido", "Use uma data AAAA-MM-DD ou um timestamp ISO 8601, como 2026-11-23T18:00:00Z."
            ) from None
    return value
