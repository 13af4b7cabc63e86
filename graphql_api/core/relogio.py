"""The domain's clock: aware UTC datetimes, the only kind stored."""

from __future__ import annotations

from datetime import UTC, datetime


def agora() -> datetime:
    return datetime.now(UTC)
