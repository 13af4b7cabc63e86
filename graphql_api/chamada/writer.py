"""Writes the call log off the request path: requests append a raw record (O(1)); a background
task masks and inserts the buffer in batches. Listeners (integration steps) see each batch."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from tortoise import connections

from graphql_api.chamada.masking import mask_authorization, mask_body, mask_idempotency_key
from graphql_api.chamada.models import CALL_LOG_CONNECTION, Chamada

_COLUMNS = tuple(sorted(Chamada._meta.db_fields))


def _insert_sql(dialect: str) -> str:
    columns = ",".join(f'"{c}"' for c in _COLUMNS)
    if dialect == "sqlite":
        marks = ",".join("?" for _ in _COLUMNS)
    else:
        marks = ",".join(f"${i}" for i in range(1, len(_COLUMNS) + 1))
    return f'INSERT INTO "{Chamada._meta.db_table}" ({columns}) VALUES ({marks}) ON CONFLICT ("id") DO NOTHING'


async def _copy(connection, values: list[list]) -> None:
    """PostgreSQL's COPY: a batch costs a fraction of the INSERTs' CPU, and is all or nothing."""
    async with connection.acquire_connection() as conn:
        await conn.copy_records_to_table(Chamada._meta.db_table, records=values, columns=list(_COLUMNS))


def _db_values(row: dict, dialect: str) -> list:
    """Values as each driver stores them for Tortoise (SQLite: text dates, 0/1 booleans)."""
    values = []
    for column in _COLUMNS:
        value = row[column]
        if isinstance(value, dict):
            value = json.dumps(value, separators=(",", ":"))
        elif dialect == "sqlite" and isinstance(value, datetime):
            value = str(value)
        elif dialect == "sqlite" and isinstance(value, bool):
            value = int(value)
        values.append(value)
    return values


log = logging.getLogger(__name__)

ROWS_PER_SLICE = 50
MAX_BUFFER = 50_000  # beyond this the database is not keeping up: drop and say so


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
    def __init__(self, *, flush_seconds: float, body_limit: int, batch_size: int = 500) -> None:
        self.flush_seconds = flush_seconds
        self.body_limit = body_limit
        self.batch_size = batch_size  # rows per insert; this many buffered wake the writer early
        self.isolated = 0  # calls stored without their bodies because these could not be
        self.dropped = 0  # calls the database refused even without bodies
        self.listeners: list[Listener] = []
        self._buffer: list[CallRecord] = []
        self._task: asyncio.Task | None = None
        self._wake = asyncio.Event()
        self._flush_lock = asyncio.Lock()
        self._stopping = False

    def add(self, record: CallRecord) -> None:
        if len(self._buffer) >= MAX_BUFFER:
            log.error("call log buffer full; dropping call %s", record.id)
            self.dropped += 1
            return
        self._buffer.append(record)
        if len(self._buffer) >= self.batch_size:
            self._wake.set()

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
            except Exception:  # keep the writer alive; the batch stays buffered for the next try
                log.exception("call log flush failed")
                if not self._stopping:
                    await asyncio.sleep(1)

    async def flush(self, *, drain: bool = True) -> None:
        """Write the buffer. The writer's own round (`drain=False`) writes what was buffered when
        it began and leaves calls that arrive meanwhile to its next round: draining them at once
        wrote a trickle of tiny batches back to back under load (a commit and the listeners per
        few rows), most of all when the listeners had little to do."""
        async with self._flush_lock:
            due = len(self._buffer)
            while self._buffer and (drain or due > 0):
                batch = self._buffer[: self.batch_size if drain else min(self.batch_size, due)]
                due -= len(batch)
                rows = []
                for n, record in enumerate(batch, 1):
                    rows.append(self._row_or_note(record))
                    if n % ROWS_PER_SLICE == 0:
                        await asyncio.sleep(0)  # let waiting requests run: a big batch is not one long stall
                await self._write(rows)
                del self._buffer[: len(batch)]
                for listener in self.listeners:
                    try:
                        await listener(batch)
                    except Exception:
                        log.exception("call log listener failed")

    def _row_or_note(self, record: CallRecord) -> dict:
        """The masked row; when masking itself fails, the metadata with a note for the bodies."""
        try:
            return self._row(record)
        except Exception:
            log.exception("call log: call %s kept without its bodies (masking failed)", record.id)
            self.isolated += 1
            return self._row(record, bodies=False)

    async def _write(self, rows: list[dict]) -> None:
        """Insert the batch. If the database is up but refuses it, one bad row must not hold back
        the rest (nor every later call): rows go in one by one, a refused one again without its
        bodies and with its text cleaned, and one refused even then is dropped and counted."""
        try:
            return await self._insert(rows)
        except Exception:
            if not await self._database_answers():
                raise  # the database is down: the batch stays buffered for the next try
            log.exception("call log: a batch of %d was refused; writing its calls one by one", len(rows))
        for row in rows:
            try:
                await self._insert([row])
                continue
            except Exception:
                log.exception("call log: call %s refused; keeping its metadata only", row["id"])
            self.isolated += 1
            try:
                await self._insert([_without_bodies(row)])
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

    async def _insert(self, rows: list[dict]) -> None:
        # Rows, not model instances: building a Chamada object per call cost more than writing it.
        # On SQLite (or after a COPY refused for a duplicate) INSERT ... ON CONFLICT DO NOTHING
        # makes a retried, partly stored batch harmless.
        connection = connections.get(CALL_LOG_CONNECTION)
        dialect = connection.capabilities.dialect
        values = [_db_values(row, dialect) for row in rows]
        if dialect == "postgres":
            import asyncpg

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
            headers["Authorization"] = mask_authorization(r.authorization)
        if r.idempotency_key:
            headers["Idempotency-Key"] = mask_idempotency_key(r.idempotency_key)
        if r.content_type:
            headers["Content-Type"] = r.content_type
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
