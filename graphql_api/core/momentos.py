"""Moments in list filters (`de`, `ate`): a date (AAAA-MM-DD, the whole day) or an ISO 8601
timestamp; without a zone, UTC."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

MENSAGEM = "use AAAA-MM-DD ou um timestamp ISO 8601"


def parse_moment(value: str, *, end_of_day: bool) -> datetime:
    if len(value) == 10:
        day = date.fromisoformat(value)
        return datetime.combine(day, time.max if end_of_day else time.min, tzinfo=UTC)
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def momento_valido(value: str | None) -> str | None:
    """A pydantic field validator's body: the value unchanged, or ValueError saying the formats."""
    if value is not None:
        try:
            parse_moment(value, end_of_day=False)
        except ValueError:
            raise ValueError(MENSAGEM) from None
    return value
