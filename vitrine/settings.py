"""Settings read from VITRINE_* environment variables, defaulting to the embedded set-up."""

from __future__ import annotations

import base64
import binascii
import os
import secrets
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from vitrine.infra.client_address import Network, parse_networks
from vitrine.infra.cpu import BACKGROUND_NICENESS
from vitrine.infra.paths import DOCS_DIR as DOCS_DIR
from vitrine.infra.paths import ROOT as ROOT


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="VITRINE_", extra="ignore")

    data_dir: Path = Path("./data")
    database_url: str = ""  # empty = SQLite file under data_dir
    redis_url: str | None = None  # unset = in-process broker, limits and cache
    storage_url: str = ""  # empty = file storage under data_dir/media; s3://bucket/prefix = S3
    # An S3-compatible service (MinIO, AWS...): its endpoint (empty = AWS), region and credentials
    # (empty = botocore's usual chain: AWS_* variables, instance role).
    s3_endpoint_url: str = ""
    s3_region: str = "us-east-1"
    s3_access_key_id: str = ""
    s3_secret_access_key: str = ""
    smtp_url: str | None = None  # unset = e-mails only go to the outbox table
    # Most PostgreSQL connections one process opens for its work (opened on demand). Fewer than
    # the concurrent requests queue them for a connection (docs/decisoes/0003-caminho-quente-da-fachada.md).
    # The call log's writer has its own 5.
    database_pool_size: int = 20

    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str = ""  # empty = http://localhost:<port>

    # Signs media links and encrypts notice secrets at rest. Empty = a random key kept in data_dir.
    secret_key: str = ""

    # Floor of every plan's per-minute limits (plans set them: docs/limites.md, graphql_api/creditos/catalogo.json).
    rate_limit_per_key: int = 300
    rate_limit_per_integrator: int = 1200
    # Requests refused with 401, per client IP address and minute; past it, 429 (docs/limites.md).
    rate_limit_unauthenticated_per_ip: int = 300
    # Reverse proxies in front of the service (addresses or networks, comma-separated: "10.0.0.0/8,
    # 127.0.0.1"). A request from one of them is attributed to the address its X-Forwarded-For
    # names (the rightmost one that is not itself a trusted proxy); empty = the connection's own
    # address, and X-Forwarded-For is ignored (a client could write anything there).
    trusted_proxies: str = ""

    # The connection's bounds (vitrine/http_server.py, docs/limites.md "Conexões"). A request body
    # must have arrived this long after its headers, or the request is answered 408 and its
    # connection closed: a body that stops arriving would hold the connection forever. 1 MB at
    # the limit is ~35 KB/s, far below any server's link.
    body_read_timeout_seconds: float = Field(default=30.0, gt=0)
    # Connections one source address may hold open at once; the next is refused with a canned 429
    # before anything is read. 0 = no limit: behind a reverse proxy every connection comes from the
    # proxy's address, and the proxy bounds each client instead.
    max_connections_per_address: int = Field(default=100, ge=0)

    # Prefix of every Redis key, pub/sub channel and the task queue: deployments (or test runs)
    # sharing one Redis stay apart by each having its own. Lowercase, digits, "_" and "-" only,
    # so no namespace is a prefix of another's keys ("a" vs "a:b").
    redis_namespace: str = Field(default="vitrine", pattern=r"^[a-z0-9_-]{1,32}$")

    # The call log is written off the request path: every flush_seconds, or sooner once batch_size
    # calls wait. A crash (not a graceful stop, which writes them all) loses at most what waits.
    # Small batches spread the database's work for the log over time, so no burst of it delays
    # every request in flight; much smaller ones cost more CPU per call
    # (docs/decisoes/0001-registro-de-chamadas.md).
    call_log_flush_seconds: float = 0.2
    call_log_batch_size: int = Field(default=50, ge=1, le=10_000)
    call_log_body_limit: int = 64 * 1024
    # Masked, encoded and inserted by a child process of each web process (vitrine/call_log_process.py);
    # false = in the web process itself (the test suite's in-process apps, a one-process deployment).
    call_log_process: bool = True
    # A child that has not answered a batch (or started, or ended once told to stop) in this long is
    # killed (and replaced while the service runs); the batch stays buffered for the next one. A
    # batch takes milliseconds; a wedged child must not hold the call log until the buffer's cap
    # drops calls.
    # How much lower than the requests background work runs (nice value added: the render and
    # photo workers, the call log's process and its SQLite thread). 0 keeps everything at one
    # priority: the test command, whose many processes at normal priority would starve the rest.
    background_niceness: int = Field(default=BACKGROUND_NICENESS, ge=0, le=19)
    call_log_process_timeout_seconds: float = Field(default=30.0, gt=0)

    # The hot path's speed-ups over graphql-core, Strawberry and Tortoise (graphql_api/core/shortcuts.py);
    # off (false) = the libraries' own code everywhere, slower but with nothing of ours in between.
    graphql_shortcuts: bool = True

    outbound_allow_private: bool = False
    outbound_ca_bundle: str | None = None
    # Time limit of each photo download of the quality check (docs/conferencia.md).
    foto_timeout_seconds: float = 15.0

    # Notices (avisos), docs/avisos.md. Retries: base * fator^n seconds (at most maximo) with
    # +-20% jitter, until the nominal waits add up to the window; tests shorten them.
    aviso_timeout_segundos: float = 10.0
    aviso_backoff_base_segundos: float = 10.0
    aviso_backoff_fator: float = 3.0
    aviso_backoff_max_segundos: float = 6 * 3600.0
    aviso_janela_horas: float = 24.0
    aviso_desativar_apos_horas: float = 72.0  # failing without a success for this long: switched off
    # An attempt in flight longer than this was lost with its worker (must exceed the timeout).
    aviso_em_voo_max_segundos: float = 60.0
    # A due delivery queued this long ago without being picked up lost its broker message.
    aviso_reenfileirar_segundos: float = 60.0
    aviso_varredura_segundos: float = 2.0  # how often the notice sweep runs (once per period, all processes)

    # Outgoing e-mail: one attempt per task, retries wait in the row for the sweep. An attempt
    # gives up within this time; a message claimed or queued this long ago with no outcome lost
    # its worker or its broker message, and the sweep queues it again.
    email_reserva_segundos: float = 120.0
    email_varredura_segundos: float = 10.0  # how often the sweep looks for due messages

    # Single-package purchases (docs/creditos.md). A purchase waits this long for its payment, then
    # expires; offline payments (bank slips) need days: raise it where they are the usual way.
    recarga_validade_minutos: int = Field(default=30, ge=5, le=60 * 24 * 10)
    # The payment provider of production purchases: the portal's checkout page (default), or an
    # external provider whose payment page is pagamento_link ({recargaId} replaced by the id) and
    # which confirms at POST /pagamentos/confirmacao. Test purchases always use the checkout page.
    pagamento_provedor: Literal["checkout", "webhook"] = "checkout"
    pagamento_link: str = ""
    # The whsec_ secret the provider signs its confirmations with (Standard Webhooks). Unset: the
    # service accepts no confirmation from outside (checkout and staff still confirm).
    pagamento_segredo: str | None = None

    # Runs the in-process workers inside `serve` (the embedded default). Off when Redis workers run.
    inprocess_workers: bool | None = Field(default=None)

    # What an operator watches (docs/operacao.md). Logs: text or JSON lines, at this level.
    log_format: Literal["text", "json"] = "text"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # GET /metrics answers only `Authorization: Bearer <this>`; unset, /metrics does not exist.
    metrics_token: str | None = Field(default=None, min_length=16)
    # `vitrine worker` serves /health, /health/ready and /metrics on this port (of VITRINE_HOST);
    # unset, the worker listens on nothing.
    worker_port: int | None = Field(default=None, ge=1, le=65535)
    # Each worker process writes a heartbeat to Redis this often; the readiness checks call the
    # workers gone when the newest is older than the stale limit.
    worker_heartbeat_seconds: float = Field(default=5.0, gt=0)
    worker_heartbeat_stale_seconds: float = Field(default=30.0, gt=0)
    # Each check of /health/ready (and the queue figures of /metrics) gives up after this long.
    health_timeout_seconds: float = Field(default=2.0, gt=0)

    @model_validator(mode="after")
    def _lease_outlasts_an_attempt(self) -> Settings:
        # Otherwise the sweep would take back deliveries still being sent, and send them twice.
        if self.aviso_em_voo_max_segundos <= self.aviso_timeout_segundos + 1:
            raise ValueError("VITRINE_AVISO_EM_VOO_MAX_SEGUNDOS must exceed VITRINE_AVISO_TIMEOUT_SEGUNDOS + 1")
        return self

    @field_validator("log_level", mode="before")
    @classmethod
    def _level_in_any_case(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _heartbeat_outlives_its_period(self) -> Settings:
        if self.worker_heartbeat_stale_seconds <= 2 * self.worker_heartbeat_seconds:
            raise ValueError(
                "VITRINE_WORKER_HEARTBEAT_STALE_SECONDS must exceed twice VITRINE_WORKER_HEARTBEAT_SECONDS"
            )
        return self

    @model_validator(mode="after")
    def _no_task_queue(self) -> Settings:
        # Its successor: a deployment kept apart by this alone would silently share everything else.
        if os.environ.get("VITRINE_TASK_QUEUE"):
            raise ValueError(
                "VITRINE_TASK_QUEUE was replaced by VITRINE_REDIS_NAMESPACE, which names the task "
                "queue and every other Redis key: set that instead"
            )
        return self

    @model_validator(mode="after")
    def _payment_provider(self) -> Settings:
        if self.pagamento_segredo is not None:
            corpo = self.pagamento_segredo.removeprefix("whsec_")
            try:
                chave = base64.b64decode(corpo, validate=True)
            except binascii.Error:
                chave = b""
            if corpo == self.pagamento_segredo or len(chave) < 24:
                raise ValueError("VITRINE_PAGAMENTO_SEGREDO must be whsec_ + the base64 of a key of at least 24 bytes")
        if self.pagamento_provedor == "webhook" and not (
            self.pagamento_link.startswith("https://") and "{recargaId}" in self.pagamento_link
        ):
            raise ValueError(
                "VITRINE_PAGAMENTO_PROVEDOR=webhook needs VITRINE_PAGAMENTO_LINK: the provider's https "
                "payment page with {recargaId} where the purchase id goes"
            )
        return self

    def redis_key(self, *parts: str) -> str:
        """A Redis key, channel or queue name inside this deployment's namespace."""
        return ":".join((self.redis_namespace, *parts))

    @property
    def task_queue(self) -> str:
        """The Redis list the workers read."""
        return self.redis_key("tasks")

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        # WAL with synchronous=NORMAL: commits without an fsync each (durable except for the last
        # transactions on power loss); busy_timeout lets the call-log connection wait its turn.
        return f"sqlite://{self.data_dir / 'vitrine.sqlite3'}?busy_timeout=5000&synchronous=NORMAL"

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")

    @property
    def base_url(self) -> str:
        return (self.public_url or f"http://localhost:{self.port}").rstrip("/")

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/v1"

    @property
    def docs_url(self) -> str:
        return f"{self.base_url}/docs"

    @property
    def media_dir(self) -> Path:
        if self.storage_url.startswith("file://"):
            return Path(self.storage_url.removeprefix("file://"))
        return self.data_dir / "media"

    @property
    def runs_inprocess_workers(self) -> bool:
        if self.inprocess_workers is not None:
            return self.inprocess_workers
        return self.redis_url is None

    @model_validator(mode="after")
    def _trusted_proxies(self) -> Settings:
        parse_networks(self.trusted_proxies)  # a malformed entry stops the start, naming itself
        return self

    @cached_property
    def trusted_proxy_networks(self) -> tuple[Network, ...]:
        return parse_networks(self.trusted_proxies)

    @cached_property
    def signing_key(self) -> bytes:
        if self.secret_key:
            return self.secret_key.encode()
        path = self.data_dir / "secret.key"
        if not path.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(48))
            path.chmod(0o600)
        return path.read_text().strip().encode()
