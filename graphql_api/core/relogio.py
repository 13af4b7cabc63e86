"""The domain's clock: aware UTC datetimes, the only kind stored.

Tests move it with `deslocado(...)` instead of waiting (a month-long billing cycle, an expiry):
the shift is process-wide, so the application serving the test's HTTP calls sees it too. It is
never moved outside tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

_desvio = timedelta(0)


def agora() -> datetime:
    return datetime.now(UTC) + _desvio


@contextmanager
def deslocado(quanto: timedelta) -> Iterator[None]:
    """Within the block, `agora()` is `quanto` later than the real time (nested shifts add up)."""
    global _desvio
    anterior = _desvio
    _desvio = anterior + quanto
    try:
        yield
    finally:
        _desvio = anterior


def avancar(quanto: timedelta) -> None:
    """Move the clock forward for the rest of the process (a fixture undoes it with `deslocado`)."""
    global _desvio
    _desvio += quanto
