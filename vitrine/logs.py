"""The log lines of every process (`vitrine serve`, `vitrine worker`, the call log's own process):
readable text by default, one JSON object per line with VITRINE_LOG_FORMAT=json, at
VITRINE_LOG_LEVEL. Each line carries the fields of the scope it was written in (the request's
req_ id, the integrator, the task's name and id: vitrine/infra/log_context.py), whichever library
wrote it: the service and its libraries (aiohttp, taskiq, Tortoise) all log through the standard
`logging`, so the fields are put on every record as it is made, and the JSON is written by
python-json-logger's formatter (docs/operacao.md, "Logs")."""

from __future__ import annotations

import logging
import sys

from pythonjsonlogger.orjson import OrjsonFormatter

from vitrine.infra import log_context

CONTEXT_FIELDS = ("request_id", "integrador_id", "task_name", "task_id")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s%(context)s: %(message)s"


def _scoped_record(*args, **kwargs) -> logging.LogRecord:
    """Every record, made with the current scope's fields. In a periodic job's run, the broker's
    own routine lines ("Executing task ...") go down to DEBUG, which the handler's level then drops
    at INFO: a sweep every 2 s must not fill the log (its outcome is logged at INFO when it did
    something: tasks/middleware.py)."""
    record = _base_factory(*args, **kwargs)
    scope = log_context.current()
    if scope is None:
        return record
    if scope.periodic and record.levelno == logging.INFO and record.name.startswith("taskiq"):
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
    for name, value in scope.fields().items():
        setattr(record, name, value)
    return record


_base_factory = logging.getLogRecordFactory()


def install_scopes() -> None:
    """Make every record carry its scope, for any handler (the test suite's too). Idempotent."""
    global _base_factory
    current = logging.getLogRecordFactory()
    if current is not _scoped_record:
        _base_factory = current
        logging.setLogRecordFactory(_scoped_record)


class TextFormatter(logging.Formatter):
    """`time LEVEL logger [req_… itg_… task id]: message`; the brackets only when there is context."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        values = [str(value) for name in CONTEXT_FIELDS if (value := getattr(record, name, None))]
        record.context = f" [{' '.join(values)}]" if values else ""
        return super().format(record)


def json_formatter() -> logging.Formatter:
    return OrjsonFormatter(
        "{levelname}{name}{message}",
        style="{",
        rename_fields={"levelname": "level", "name": "logger"},
        timestamp="time",
    )


def configure(level: str = "INFO", fmt: str = "text") -> None:
    """One handler on the root logger, to stderr; replaces whatever was configured before."""
    install_scopes()
    numeric = logging.getLevelName(level.upper())
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(json_formatter() if fmt == "json" else TextFormatter())
    handler.setLevel(numeric)  # a record demoted after the logger let it through stops here
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(numeric)
