"""Writes the call log off the request path: each request masks and encodes its own call as it
ends; a background task inserts the buffer in batches. Listeners
(integration steps) see each batch. The service runs this writer in a process of its own by
default (vitrine/call_log_process.py), where a web process's calls arrive raw, batch by batch."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import orjson
from tortoise import connections, fields

from graphql_api.chamada.masking import mask_authorization, mask_body, mask_idempotency_key
from graphql_api.chamada.models import CALL_LOG_CONNECTION, Chamada
from graphql_api.core.texto import texto_de_cabecalho

_COLUMNS = tuple(sorted(Chamada._meta.db_fields))
_COLUMN_LIST = ",".join(f'"{c}"' for c in _COLUMNS)


def _insert_sql(dialect: str) -> str:
    if dialect == "sqlite":
        marks = ",".join("?" for _ in _COLUMNS)
    else:
        marks = ",".join(f"${i}" for i in range(1, len(_COLUMNS) + 1))
    return f'INSERT INTO "{Chamada._meta.db_table}" ({_COLUMN_LIST}) VALUES ({marks}) ON CONFLICT ("id") DO NOTHING'


def _field(column: str) -> fields.Field:
    return Chamada._meta.fields_map[Chamada._meta.fields_db_projection_reverse[column]]


_JSON_POSITIONS = frozenset(i for i, c in enumerate(_COLUMNS) if isinstance(_field(c), fields.JSONField))


_BODY_POSITIONS = (_COLUMNS.index("corpo_enviado"), _COLUMNS.index("corpo_recebido"))


def _pick(position: int) -> str:
    """How the batch's JSON gives column `position` of a row: bodies from their own element, JSON
    columns as JSON text (their null as NULL), the others as SQL values (true and false as 1 and 0,
    as Tortoise stores them)."""
    if position in _BODY_POSITIONS:
        return f"corpo{_BODY_POSITIONS.index(position)}"
    return f"nullif(linha->{position},'null')" if position in _JSON_POSITIONS else f"linha->>{position}"


# SQLite takes a whole batch as one JSON array of rows, in one statement: binding rows one by one
# (executemany) takes the interpreter's lock from the event loop at every row, and one statement
# runs without it (docs/decisoes/0001-registro-de-chamadas.md). SQLite parses a JSON text again at
# every column it reads from it, so each row comes as [columns, request body, response body]: the
# materialized step reads the two bodies once and the other columns from the short rest.
# ("WHERE true" tells SQLite's parser that ON CONFLICT is the upsert clause, not a join's.)
_INSERT_FROM_JSON = (
    "WITH lote AS MATERIALIZED (SELECT value->0 AS linha, value->>1 AS corpo0, value->>2 AS corpo1 "
    "FROM json_each(?)) "
    f'INSERT INTO "{Chamada._meta.db_table}" ({_COLUMN_LIST}) '
    f"SELECT {','.join(_pick(i) for i in range(len(_COLUMNS)))} FROM lote "
    'WHERE true ON CONFLICT ("id") DO NOTHING'
)


async def _copy(connection, values: list[list]) -> None:
    """PostgreSQL's COPY: a batch costs a fraction of the INSERTs' CPU, and is all or nothing."""
    async with connection.acquire_connection() as conn:
        await conn.copy_records_to_table(Chamada._meta.db_table, records=values, columns=list(_COLUMNS))


def _conversions(dialect: str) -> tuple[tuple[int, Callable[[Any], Any]], ...]:
    """(position, conversion) of the columns a driver does not take as they are: JSON as text, and
    on SQLite dates as text and booleans as 0/1, as Tortoise stores them."""
    kinds: list[tuple[int, Callable[[Any], Any]]] = []
    for position, column in enumerate(_COLUMNS):
        field = _field(column)
        if isinstance(field, fields.JSONField):
            kinds.append((position, _json_text))
        elif dialect == "sqlite" and isinstance(field, fields.DatetimeField):
            kinds.append((position, str))
        elif dialect == "sqlite" and isinstance(field, fields.BooleanField):
            kinds.append((position, int))
    return tuple(kinds)


def _json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


_CONVERSIONS = {dialect: _conversions(dialect) for dialect in ("sqlite", "postgres")}


def _db_values(row: dict, dialect: str) -> list:
    """The row's values in column order, as each driver stores them for Tortoise."""
    values = [row[column] for column in _COLUMNS]
    for position, convert in _CONVERSIONS[dialect]:
        if values[position] is not None:
            values[position] = convert(values[position])
    return values


def _encoded(row: dict, dialect: str) -> list | str:
    """What `_insert` takes for a row: its values, or on SQLite one JSON text [columns, request
    body, response body] (JSON columns inline, dates as Tortoise's text). A text holding NUL stays
    as values: SQLite's JSON functions would cut the text there."""
    if dialect != "sqlite":
        return _db_values(row, dialect)
    # orjson: this runs on the request path. Dates go through _date_text:
    # Tortoise's text for them has a space, not a "T", and the log's date filters compare that text.
    columns = [row[column] for column in _COLUMNS]
    bodies = [columns[position] for position in _BODY_POSITIONS]
    for position in _BODY_POSITIONS:
        columns[position] = None
    text = orjson.dumps([columns, *bodies], default=_date_text, option=orjson.OPT_PASSTHROUGH_DATETIME)
    return _db_values(row, dialect) if b"\\u0000" in text else text.decode()


def _date_text(value: Any) -> str:
    if isinstance(value, datetime):
        return str(value)
    raise TypeError(f"a call-log column cannot hold {type(value).__name__}")


log = logging.getLogger(__name__)

MAX_BUFFER = 50_000  # beyond this the database is not keeping up: drop and say so


class BatchDeferred(RuntimeError):
    """A batch not written for a known reason (its writer process ended, the database refused
    the connection): it stays buffered for the next try, and the log says so in one line."""


class TipoChamada(enum.StrEnum):
    """What a call was, as the door that took it declares it: those who judge the call log
    (integration steps) read this, never the door's paths."""

    GASTA_CREDITOS = "gasta_creditos"  # asks for media that spends credits
    CRIA_SUBCONTA = "cria_subconta"


@dataclass(slots=True)
class CallRecord:
    id: str
    integrador_id: str
    ambiente: str
    credencial: str
    chave_id: str | None
    conta_id: str | None
    metodo: str
    endpoint: str
    caminho: str
    status: int
    duracao_ms: float
    codigo_erro: str | None
    mensagem_erro: str | None
    causa_erro: str | None
    replay: bool
    idempotency_key: str | None
    authorization: str | None
    content_type: str | None
    request_body: bytes | None
    response_body: bytes | None
    criado_em: datetime  # when the request arrived
    retry_after: int | None = None  # seconds, when the answer carried Retry-After
    client_id: str | None = None  # the OAuth app of an oat_ token
    tipo: TipoChamada | None = None  # what the call was (not stored: only the batch's listeners read it)
    cabecalhos_resposta: dict[str, str] | None = None  # the response headers worth seeing


Listener = Callable[[list[CallRecord]], Awaitable[None]]


class CallLogWriter:
    def __init__(
        self, *, flush_seconds: float, body_limit: int, batch_size: int = 50, json_batches: bool = True
    ) -> None:
        self.flush_seconds = flush_seconds
        self.body_limit = body_limit
        self.batch_size = batch_size  # rows per insert; this many buffered wake the writer early
        # On SQLite, one statement over a JSON array per batch (see _INSERT_FROM_JSON): it spares
        # an event loop in the same process the interpreter's lock at every row. A process that
        # only writes the log has no such loop, and binds rows (executemany), which costs SQLite
        # less CPU per row than reading them out of JSON.
        self.json_batches = json_batches
        self.isolated = 0  # calls stored without their bodies because these could not be
        self.dropped = 0  # calls not stored at all: refused, or not encodable, even without bodies
        self.listeners: list[Listener] = []
        self._buffer: list[CallRecord] = []
        # Each buffered call's masked row and what _insert takes for it, made when it was added:
        # masking a whole batch at flush time slows every request in flight for the flush's length.
        self._prepared: list[tuple[dict, list | str]] = []
        self._unjudged: list[CallRecord] = []  # written, not yet seen by the listeners
        self._judged_at = -math.inf  # when the listeners last saw calls (time.monotonic())
        self._dialect: str | None = None
        self._task: asyncio.Task | None = None
        self._wake = asyncio.Event()
        self._flush_lock = asyncio.Lock()
        self._stopping = False

    @property
    def buffered(self) -> int:
        """Calls waiting to be written (the service's metrics and readiness read it)."""
        return len(self._buffer)

    @property
    def running(self) -> bool:
        """Its background task is alive (between start and stop)."""
        return self._task is not None and not self._task.done()

    def add(self, record: CallRecord) -> None:
        if len(self._buffer) >= MAX_BUFFER:
            log.error("call log buffer full; dropping call %s", record.id)
            self.dropped += 1
            return
        if not self._accept(record):
            return
        self._buffer.append(record)
        if len(self._buffer) >= self.batch_size:
            self._wake.set()

    def _accept(self, record: CallRecord) -> bool:
        """Mask and encode the call as it arrives (False: it cannot be stored at all)."""
        if self._dialect is None:
            self._dialect = connections.get(CALL_LOG_CONNECTION).capabilities.dialect
        prepared = self._prepare(record, self._dialect)
        if prepared is None:
            return False
        self._prepared.append(prepared)
        return True

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="call-log-writer")

    async def stop(self) -> None:
        # Never cancel a flush midway: that would leave the log connection inside a transaction.
        buffered = len(self._buffer)
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            await self._task
            self._task = None
        try:
            await self.flush()
        except Exception:
            log.exception("call log: %d calls could not be written at shutdown", len(self._buffer))
        else:
            log.info("call log: %d buffered calls written at shutdown", buffered)

    async def _run(self) -> None:
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.flush_seconds)
            self._wake.clear()
            try:
                await self.flush(drain=False)
            except Exception as exc:  # keep the writer alive; the batch stays buffered for the next try
                if isinstance(exc, OSError | BatchDeferred):  # a known state (database down): no traceback
                    log.log(
                        logging.WARNING if self._stopping else logging.ERROR,
                        "call log flush failed, %d calls stay buffered for the next try: %s",
                        len(self._buffer),
                        exc,
                    )
                else:
                    log.exception("call log flush failed")
                if not self._stopping:
                    await asyncio.sleep(1)

    async def flush(self, *, drain: bool = True) -> None:
        """Write the buffer. The writer's own round (`drain=False`) writes what was buffered when
        it began and leaves calls that arrive meanwhile to its next round: draining them at once
        wrote a trickle of tiny batches back to back under load (a commit and the listeners per
        few rows), most of all when the listeners had little to do.

        The listeners see the written calls at most once per `flush_seconds` (and at every drain),
        however small the batches: each of their rounds costs a query or two whatever its size."""
        async with self._flush_lock:
            due = len(self._buffer)
            while self._buffer and (drain or due > 0):
                batch = self._buffer[: self.batch_size if drain else min(self.batch_size, due)]
                due -= len(batch)
                await self._write_batch(batch)
                del self._buffer[: len(batch)]
                self._unjudged.extend(batch)
            if self._unjudged and (drain or time.monotonic() - self._judged_at >= self.flush_seconds):
                written, self._unjudged = self._unjudged, []
                self._judged_at = time.monotonic()
                for listener in self.listeners:
                    try:
                        await listener(written)
                    except Exception:
                        log.exception("call log listener failed")

    async def _write_batch(self, batch: list[CallRecord]) -> None:
        """Store the first `len(batch)` buffered calls, masked and encoded when they arrived."""
        await self._write_prepared(self._prepared[: len(batch)])
        del self._prepared[: len(batch)]

    async def write_now(self, records: list[CallRecord]) -> None:
        """Mask, encode and store these calls at once, outside the buffer (the call log's own
        process takes its batches so: vitrine/call_log_process.py)."""
        dialect = connections.get(CALL_LOG_CONNECTION).capabilities.dialect
        prepared = [p for record in records if (p := self._prepare(record, dialect)) is not None]
        if prepared:
            await self._write_prepared(prepared)

    async def _write_prepared(self, prepared: list[tuple[dict, list | str]]) -> None:
        await self._write([row for row, _ in prepared], [value for _, value in prepared])

    def _prepare(self, record: CallRecord, dialect: str) -> tuple[dict, list | str] | None:
        """The call's masked row and its encoding; a row that cannot be encoded loses its bodies,
        and one that cannot be encoded even then is dropped and counted (never the request)."""
        row = self._row_or_note(record)
        encode = _encoded if self.json_batches else _db_values
        try:
            return row, encode(row, dialect)
        except Exception:
            log.exception("call log: call %s kept without its bodies (could not be encoded)", record.id)
        self.isolated += 1
        row = _without_bodies(row)
        try:
            return row, encode(row, dialect)
        except Exception:
            log.exception("call log: call %s could not be encoded at all; dropped", record.id)
            self.dropped += 1
            return None

    def _row_or_note(self, record: CallRecord) -> dict:
        """The masked row; when masking itself fails, the metadata with a note for the bodies."""
        try:
            return self._row(record)
        except RecursionError:
            # Expected: a hostile body nested deeper than any walk (the facade refused it, 400)
            log.warning("call log: call %s kept without its bodies (nested too deep to mask)", record.id)
        except Exception:
            log.exception("call log: call %s kept without its bodies (masking failed)", record.id)
        self.isolated += 1
        return self._row(record, bodies=False)

    async def _write(self, rows: list[dict], values: list[list | str]) -> None:
        """Insert the batch. If the database is up but refuses it, one bad row must not hold back
        the rest (nor every later call): rows go in one by one, a refused one again without its
        bodies and with its text cleaned, and one refused even then is dropped and counted."""
        try:
            return await self._insert(values)
        except Exception:
            if not await self._database_answers():
                raise  # the database is down: the batch stays buffered for the next try
            log.exception("call log: a batch of %d was refused; writing its calls one by one", len(rows))
        for row in rows:
            try:
                await self._insert([self._values(row)])
                continue
            except Exception:
                log.exception("call log: call %s refused; keeping its metadata only", row["id"])
            self.isolated += 1
            try:
                await self._insert([self._values(_without_bodies(row))])
            except Exception:
                if not await self._database_answers():
                    raise  # went down midway: what is left is retried whole (stored rows are skipped)
                log.exception("call log: call %s could not be written at all; dropped", row["id"])
                self.dropped += 1

    async def _database_answers(self) -> bool:
        try:
            await connections.get(CALL_LOG_CONNECTION).execute_query("SELECT 1")
            return True
        except Exception:
            return False

    @staticmethod
    def _values(row: dict) -> list | str:
        return _encoded(row, connections.get(CALL_LOG_CONNECTION).capabilities.dialect)

    async def _insert(self, encoded: list[list | str]) -> None:
        # Rows, not model instances: building a Chamada object per call cost more than writing it.
        # INSERT ... ON CONFLICT DO NOTHING makes a retried, partly stored batch harmless (on
        # PostgreSQL after a COPY refused for a duplicate).
        connection = connections.get(CALL_LOG_CONNECTION)
        dialect = connection.capabilities.dialect
        if dialect == "sqlite":
            texts = [row for row in encoded if isinstance(row, str)]
            if texts:
                await connection.execute_query(_INSERT_FROM_JSON, ["[" + ",".join(texts) + "]"])
            bound = [row for row in encoded if not isinstance(row, str)]
            if bound:
                await connection.execute_many(_insert_sql(dialect), bound)
            return
        import asyncpg  # PostgreSQL only: the embedded default never loads the driver

        values = cast(list[list], encoded)
        try:
            return await _copy(connection, values)
        except asyncpg.UniqueViolationError:
            pass  # stored before, its acknowledgement lost: the INSERTs below skip what exists
        await connection.execute_many(_insert_sql(dialect), values)

    def _row(self, r: CallRecord, *, bodies: bool = True) -> dict:
        if bodies:
            sent, sent_cut = mask_body(r.request_body, self.body_limit)
            received, received_cut = mask_body(r.response_body, self.body_limit)
        else:
            sent, sent_cut = (NOTE if r.request_body else None), False
            received, received_cut = (NOTE if r.response_body else None), False
        headers = {}
        if r.authorization:
            headers["Authorization"] = mask_authorization(texto_de_cabecalho(r.authorization))
        if r.idempotency_key:
            headers["Idempotency-Key"] = mask_idempotency_key(texto_de_cabecalho(r.idempotency_key))
        if r.content_type:
            headers["Content-Type"] = texto_de_cabecalho(r.content_type)
        return dict(
            id=r.id,
            integrador_id=r.integrador_id,
            ambiente=r.ambiente,
            chave_id=r.chave_id,
            credencial=r.credencial,
            client_id=r.client_id,
            conta_id=r.conta_id,
            metodo=r.metodo,
            endpoint=r.endpoint[:200],
            caminho=r.caminho[:1000].replace("\x00", "\ufffd"),  # PostgreSQL text holds no NUL
            status=r.status,
            classe_status=r.status // 100,
            duracao_ms=round(r.duracao_ms, 2),
            codigo_erro=r.codigo_erro,
            mensagem_erro=r.mensagem_erro,
            causa_erro=r.causa_erro,
            replay=r.replay,
            idempotency_key=headers.get("Idempotency-Key"),
            cabecalhos=headers,
            cabecalhos_resposta=r.cabecalhos_resposta,
            corpo_enviado=sent,
            corpo_recebido=received,
            corpo_enviado_cortado=sent_cut,
            corpo_recebido_cortado=received_cut,
            criado_em=r.criado_em,
        )


NOTE = "[corpo não guardado: o registro de chamadas não conseguiu lê-lo para mascarar]"


def _without_bodies(row: dict) -> dict:
    """The row a database cannot refuse: bodies replaced by a note, no NUL in any text."""
    clean = {k: v.replace("\x00", "\ufffd") if isinstance(v, str) else v for k, v in row.items()}
    return clean | {
        "cabecalhos": {},
        "corpo_enviado": NOTE if row["corpo_enviado"] or row["corpo_enviado_cortado"] else None,
        "corpo_recebido": NOTE if row["corpo_recebido"] or row["corpo_recebido_cortado"] else None,
        "corpo_enviado_cortado": False,
        "corpo_recebido_cortado": False,
    }
