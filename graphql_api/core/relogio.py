"""The domain's clock: aware UTC datetimes, the only kind stored."""

from __future__ import annotations

from datetime import datetime, timezone


def agora() -> datetime:
    return datetime.now(timezone.utc)
