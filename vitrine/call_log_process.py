"""The call log written by a process of its own, a child of each web process.

In the web process every call costs its event loop the masking and encoding of its record, and on
SQLite the INSERTs run in a thread of the same interpreter (docs/decisoes/0001-registro-de-chamadas.md
says how much). Here the web process only hands the raw records over: one `marshal` of the batch,
written to the child's stdin; the child masks, encodes and inserts them with the same code
(`CallLogWriter.write_now`) and answers one line per batch. The web process keeps the buffer and
the listeners (integration steps, keys' last use): they see a batch once the child says it is
stored, as they see it once it is inserted in process.

The child starts with the first call (a worker that logs no call never starts one), runs at the
background priority of the render workers, ignores SIGINT and SIGTERM (a terminal's Ctrl-C or a
`kill` of the process group reaches it too, while the web process still drains its buffer through
it) and ends when its stdin closes, or with its parent however that ends. If it dies, or stays
silent on a batch past VITRINE_CALL_LOG_PROCESS_TIMEOUT_SECONDS (then it is killed), the batch it
held stays buffered and goes to the next child: the insert skips rows already stored."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import marshal
import operator
import os
import signal
import sys
from datetime import UTC, datetime, timedelta

from graphql_api.chamada.writer import BatchDeferred, CallLogWriter, CallRecord
from vitrine import logs
from vitrine.infra.process import die_with_parent
from vitrine.settings import ROOT, Settings

log = logging.getLogger(__name__)

# What crosses the pipe: every field the insert needs, in one tuple per call. `tipo` is read by the
# listeners only, which stay in the web process; the arrival time goes as an exact offset.
_FIELDS = tuple(f.name for f in dataclasses.fields(CallRecord) if f.name not in ("tipo", "criado_em"))
_fields_of = operator.attrgetter(*_FIELDS)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_FRAME_HEADER = 4  # bytes of each frame's length, big-endian
# A new child's start (a Python start-up and its imports) is not a wedge: on a busy machine it
# can take far longer than a batch ever should, so it has its own, generous limit.
START_TIMEOUT_SECONDS = 60.0


def _wire(record: CallRecord) -> tuple:
    since = record.criado_em - _EPOCH
    return _fields_of(record), since.days, since.seconds, since.microseconds


def _record(wire: tuple) -> CallRecord:
    values, days, seconds, microseconds = wire
    fields = dict(zip(_FIELDS, values, strict=True))
    return CallRecord(**fields, criado_em=_EPOCH + timedelta(days, seconds, microseconds))


def writer_options(settings: Settings) -> dict:
    """The writer's settings, wherever one is made (the web process, the child, the benches)."""
    return {
        "flush_seconds": settings.call_log_flush_seconds,
        "body_limit": settings.call_log_body_limit,
        "batch_size": settings.call_log_batch_size,
    }


def call_log_for(settings: Settings) -> CallLogWriter:
    """The web process's call log: handed to a child process (the default), or written in place."""
    return CallLogProcess(settings) if settings.call_log_process else CallLogWriter(**writer_options(settings))


def _frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(_FRAME_HEADER, "big") + payload


class CallLogChildFailed(BatchDeferred):
    """The child could not store a batch (its database refused or is down), or it died."""


class CallLogProcess(CallLogWriter):
    """The web process's side: buffers the raw records, sends each batch to the child, runs the
    listeners on what it stored."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(**writer_options(settings))
        self._settings = settings
        self._child: asyncio.subprocess.Process | None = None

    def _accept(self, record: CallRecord) -> bool:
        return True  # masked and encoded by the child

    def child_state(self) -> str:
        """For the readiness check: "not started" (before the first call), "running (pid N)",
        or "ended" (replaced at the next batch)."""
        child = self._child
        if child is None:
            return "not started"
        return f"running (pid {child.pid})" if child.returncode is None else "ended"

    async def _write_batch(self, batch: list[CallRecord]) -> None:
        child = await self._running_child()
        payload = marshal.dumps([_wire(record) for record in batch])
        assert child.stdin is not None and child.stdout is not None
        try:
            child.stdin.write(_frame(payload))
            await child.stdin.drain()
            line = await self._answer(child)
        except (BrokenPipeError, ConnectionResetError):
            line = b""
        if not line:
            self._child = None
            raise CallLogChildFailed("the call log's process ended; its batch goes to the next one")
        answer = json.loads(line)
        self.isolated += answer["isolated"]
        self.dropped += answer["dropped"]
        if not answer["stored"]:
            raise CallLogChildFailed("the call log's process could not store a batch (its database)")

    async def _running_child(self) -> asyncio.subprocess.Process:
        if self._child is not None and self._child.returncode is None:
            return self._child
        env = os.environ | {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        # The child ties itself to this process as it starts (no preexec_fn: this process has
        # threads, and code run between fork and exec could find a lock another thread held).
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "vitrine.call_log_process",
            str(os.getpid()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
        )
        assert child.stdin is not None and child.stdout is not None
        # The settings go over the pipe, not the command line: they hold the secret key.
        child.stdin.write(_frame(self._settings.model_dump_json().encode()))
        await child.stdin.drain()
        if await self._answer(child, START_TIMEOUT_SECONDS) != b"ready\n":
            await child.wait()
            raise CallLogChildFailed(f"the call log's process did not start (exit {child.returncode})")
        self._child = child
        return child

    async def _answer(self, child: asyncio.subprocess.Process, timeout: float | None = None) -> bytes:
        """The child's next line; b"" when it ended, or when it stayed silent past the timeout
        (then it is killed: whatever it held goes to the next child, and the insert skips rows
        it may have stored)."""
        assert child.stdout is not None
        timeout = timeout or self._settings.call_log_process_timeout_seconds
        try:
            return await asyncio.wait_for(child.stdout.readline(), timeout)
        except TimeoutError:
            log.error("call log: its process answered nothing in %.0f s; killed and replaced", timeout)
            child.kill()
            await child.wait()
            return b""

    async def stop(self) -> None:
        await super().stop()
        child, self._child = self._child, None
        if child is None or child.returncode is not None:
            return
        assert child.stdin is not None
        child.stdin.close()
        try:
            await asyncio.wait_for(child.wait(), self._settings.call_log_process_timeout_seconds)
        except TimeoutError:
            log.error("call log: its process did not end; killed")
            child.kill()
            await child.wait()


# -- the child ------------------------------------------------------------------------------------


async def _read_frame(reader: asyncio.StreamReader) -> bytes | None:
    try:
        header = await reader.readexactly(_FRAME_HEADER)
        return await reader.readexactly(int.from_bytes(header, "big"))
    except asyncio.IncompleteReadError:
        return None  # stdin closed: the web process is done


async def _child_main() -> None:
    from vitrine.db import connect

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    answers = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # a stray print must not break the answers
    settings_frame = await _read_frame(reader)
    if settings_frame is None:
        return
    settings = Settings.model_validate_json(settings_frame)
    os.nice(settings.background_niceness)
    logs.configure(settings.log_level, settings.log_format)  # the web process's, whatever the environment
    context = await connect(settings, background_threads=False)  # the whole process runs lowered
    try:
        writer = CallLogWriter(**writer_options(settings), json_batches=False)
        answers.write(b"ready\n")
        while (frame := await _read_frame(reader)) is not None:
            isolated, dropped = writer.isolated, writer.dropped
            try:
                await writer.write_now([_record(wire) for wire in marshal.loads(frame)])
                stored = True
            except OSError as exc:  # the database is away: a known state, no traceback
                log.error("call log: a batch could not be stored (%s); the web process keeps it", exc)
                stored = False
            except Exception:
                log.exception("call log: a batch could not be stored; the web process keeps it")
                stored = False
            answer = {"stored": stored, "isolated": writer.isolated - isolated, "dropped": writer.dropped - dropped}
            answers.write(json.dumps(answer).encode() + b"\n")
    finally:
        await context.close_connections()


def main() -> None:
    die_with_parent(int(sys.argv[1]))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    logs.configure()  # until the settings arrive
    asyncio.run(_child_main())


if __name__ == "__main__":
    main()
