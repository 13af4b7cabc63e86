"""Where a log line happens: the request (its req_ id), the integrator (itg_) once known, the task
(its name and id) of a worker. A scope is opened per request (vitrine/observability.py) and per
task run (tasks/middleware.py); code inside them adds what it learns with `bind`, and every log
record the process writes carries the scope's fields (vitrine/logs.py).

A scope lives in a context variable: asyncio tasks started inside a request or a task inherit it.
Opening one never mutates the scope of whoever started the work (a task queued in-process by a
request gets a scope of its own, with the request's id copied in)."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class LogScope:
    request_id: str | None = None
    integrador_id: str | None = None
    task_name: str | None = None
    task_id: str | None = None
    periodic: bool = False  # a run of a periodic job: its routine lines are DEBUG
    # Read when a line is written, not when the scope opens: a door learns its request's id and
    # integrator as the request goes (the facade's middlewares), and the root middleware that opens
    # the scope runs before them. Returns (request id, integrator id), either None.
    describe: Callable[[], tuple[str | None, str | None]] | None = field(default=None, repr=False)

    def fields(self) -> dict[str, Any]:
        request_id, integrador_id = self.request_id, self.integrador_id
        if self.describe is not None and (request_id is None or integrador_id is None):
            described_request, described_integrator = self.describe()
            request_id = request_id or described_request
            integrador_id = integrador_id or described_integrator
        found: dict[str, Any] = {}
        if request_id:
            found["request_id"] = request_id
        if integrador_id:
            found["integrador_id"] = integrador_id
        if self.task_name:
            found["task_name"] = self.task_name
        if self.task_id:
            found["task_id"] = self.task_id
        return found


_current: ContextVar[LogScope | None] = ContextVar("vitrine_log_scope", default=None)


def current() -> LogScope | None:
    return _current.get()


def enter(scope: LogScope) -> Token:
    return _current.set(scope)


def leave(token: Token) -> None:
    _current.reset(token)


def bind(*, integrador_id: str | None = None, request_id: str | None = None) -> None:
    """Add what the code just learned to the current scope (nothing outside one)."""
    scope = _current.get()
    if scope is None:
        return
    if integrador_id is not None:
        scope.integrador_id = integrador_id
    if request_id is not None:
        scope.request_id = request_id
