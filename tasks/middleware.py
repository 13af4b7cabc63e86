"""What every task run carries and leaves behind, as a taskiq middleware: its log scope (the task's
name and id, and the request and integrator that queued it, which travel as the message's labels:
tasks/broker.py), its metrics, and for a periodic job's run one line with its outcome, at INFO
only when it did something (moved rows, sent something) and at DEBUG otherwise; a failure is
logged by the broker at ERROR (docs/operacao.md, "Logs")."""

from __future__ import annotations

import logging
import time
from typing import Any

from taskiq import TaskiqMessage, TaskiqMiddleware, TaskiqResult

from tasks.scheduler import DUE_LABEL
from vitrine import metrics
from vitrine.infra import log_context

log = logging.getLogger("tasks")

# The labels of a queued message that say where it came from (read from the queuing code's scope).
ORIGIN_LABELS = ("request_id", "integrador_id")


def origin_labels() -> dict[str, str]:
    """The labels a task queued here carries: the request (and integrator) it was queued in."""
    scope = log_context.current()
    if scope is None:
        return {}
    fields = scope.fields()
    return {name: fields[name] for name in ORIGIN_LABELS if name in fields}


def did_something(outcome: Any) -> bool:
    """A periodic job returns what it did as counts ({"reenfileiradas": 0, ...}): any above zero."""
    if isinstance(outcome, dict):
        return any(did_something(value) for value in outcome.values())
    return isinstance(outcome, int | float) and not isinstance(outcome, bool) and outcome > 0


class TaskObserver(TaskiqMiddleware):
    def pre_execute(self, message: TaskiqMessage) -> TaskiqMessage:
        # Each message runs in an asyncio task of its own: the scope ends with it.
        due = message.labels.get(DUE_LABEL)
        log_context.enter(
            log_context.LogScope(
                request_id=message.labels.get("request_id"),
                integrador_id=message.labels.get("integrador_id"),
                task_name=message.task_name,
                task_id=message.task_id,
                periodic=due is not None,
            )
        )
        if due is not None:
            metrics.periodic_ran(message.task_name, float(due), time.time())
        return message

    def post_execute(self, message: TaskiqMessage, result: TaskiqResult[Any]) -> None:
        metrics.TASKS.labels(message.task_name, "error" if result.is_err else "ok").inc()
        metrics.TASK_DURATION.labels(message.task_name).observe(result.execution_time)
        if DUE_LABEL not in message.labels:
            return
        metrics.periodic_ended(message.task_name)
        if not result.is_err:
            level = logging.INFO if did_something(result.return_value) else logging.DEBUG
            log.log(level, "%s: %s", message.task_name, result.return_value)
