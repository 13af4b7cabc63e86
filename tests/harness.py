"""Fixtures for the real components the suite runs against (a pytest plugin shared by tests/
and e2e/ through their conftest files, so both pick the same back end).

Back end: the embedded default (a SQLite file, in-process broker) unless VITRINE_TEST_BACKEND is
`postgres`, in which case a fresh PostgreSQL database and a Redis namespace are used (created here,
dropped at the end). The test command (scripts/test) runs the suite once per back end."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

BACKEND = os.environ.get("VITRINE_TEST_BACKEND", "sqlite")

# The test command runs the legs in the background, where a shell without job control starts them
# with Ctrl-C ignored (and Python then installs no handler): take it back, so an interrupted leg
# goes through pytest's clean-up, and the processes its tests start (and stop with Ctrl-C) see it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

PG_ADMIN_URL = os.environ.get("VITRINE_TEST_PG_ADMIN", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("VITRINE_TEST_REDIS", "redis://127.0.0.1:6379/13")

_session_id = secrets.token_hex(4)
_data_dir = Path(tempfile.mkdtemp(prefix=f"vitrine-test-{_session_id}-"))
_pg_database = f"vitrine_test_{_session_id}"
REDIS_NAMESPACE = f"test-{_session_id}"
# What a run prepares once for all its sessions (pytest-xdist's processes inherit this variable
# from the process that starts them): the migrated databases they copy.
_run_id = os.environ.setdefault("VITRINE_TEST_RUN", secrets.token_hex(4))
_run_dir = Path(tempfile.gettempdir()) / f"vitrine-test-run-{_run_id}"
_run_dir.mkdir(exist_ok=True)
_pg_template = f"vitrine_test_{_run_id}_modelo"

from tests.processes import ROOT, start_vitrine  # noqa: E402
from tests.tls import make_tls_files, server_context  # noqa: E402

# Real HTTPS servers of the tests (photo hosts, notice receivers) are signed by this CA, which the
# service trusts; they listen on 127.0.0.1, so private addresses are allowed in tests (the tests of
# the address rules build their own client without that allowance).
CA_PATH, SERVER_CERT, SERVER_KEY = make_tls_files(_data_dir / "tls")

# Settings are read from the environment by every process the tests start (workers, CLI), so the
# back end is chosen here, before the application modules are imported.
os.environ["VITRINE_DATA_DIR"] = str(_data_dir)
os.environ["VITRINE_OUTBOUND_CA_BUNDLE"] = str(CA_PATH)
os.environ["VITRINE_OUTBOUND_ALLOW_PRIVATE"] = "1"
# Photo downloads give up after 10 s in tests (the service's default is longer): the timeout case
# stays short, and a test photo server slowed by a busy machine still answers in time.
os.environ["VITRINE_FOTO_TIMEOUT_SECONDS"] = "10"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# A real SMTP server (aiosmtpd) for the whole session; what it receives lands in SMTP_INBOX.
SMTP_PORT = _free_port()
SMTP_INBOX: list = []
os.environ["VITRINE_SMTP_URL"] = f"smtp://127.0.0.1:{SMTP_PORT}"
os.environ["VITRINE_SECRET_KEY"] = "test-secret-key"
# Every process of the run at one priority: with a dozen test processes at the normal one, workers
# lowered as in production (render, photo, call log) would get a sliver of the two cores and the
# tests would wait on them for minutes. The tests of the priorities themselves set it back.
os.environ["VITRINE_BACKGROUND_NICENESS"] = "0"
os.environ["VITRINE_CALL_LOG_FLUSH_SECONDS"] = "0.05"
os.environ.setdefault("VITRINE_PUBLIC_URL", "http://vitrine.test")
# Notices: the production schedule with seconds for minutes (0.3 s, 0.9 s, 2.7 s, ...), and a
# short lease so a delivery whose worker died is taken back within seconds.
os.environ["VITRINE_AVISO_BACKOFF_BASE_SEGUNDOS"] = "0.3"
os.environ["VITRINE_AVISO_TIMEOUT_SEGUNDOS"] = "3"
os.environ["VITRINE_AVISO_EM_VOO_MAX_SEGUNDOS"] = "5"
os.environ["VITRINE_AVISO_REENFILEIRAR_SEGUNDOS"] = "3"
os.environ["VITRINE_AVISO_VARREDURA_SEGUNDOS"] = "0.2"
# E-mail: a claim of 5 s (a send killed with its worker is taken back within seconds), swept twice a second.
os.environ["VITRINE_EMAIL_RESERVA_SEGUNDOS"] = "5"
os.environ["VITRINE_EMAIL_VARREDURA_SEGUNDOS"] = "0.5"
# The scaled leg keeps media in S3: a real S3 server process (moto's standalone server), tied to
# this run like the worker, with a bucket of its own; the file store is the embedded default's.
S3_PORT = _free_port() if BACKEND == "postgres" else None
S3_BUCKET = f"vitrine-test-{_session_id}"
_s3: subprocess.Popen | None = None
if BACKEND == "postgres":
    os.environ["VITRINE_STORAGE_URL"] = f"s3://{S3_BUCKET}/media"
    os.environ["VITRINE_S3_ENDPOINT_URL"] = f"http://127.0.0.1:{S3_PORT}"
    os.environ["VITRINE_S3_ACCESS_KEY_ID"] = "teste"
    os.environ["VITRINE_S3_SECRET_ACCESS_KEY"] = "teste-segredo"
else:
    for name in ("VITRINE_STORAGE_URL", "VITRINE_S3_ENDPOINT_URL"):
        os.environ.pop(name, None)
if BACKEND == "postgres":
    os.environ["VITRINE_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{_pg_database}"
    os.environ["VITRINE_REDIS_URL"] = REDIS_URL
    # The run's own Redis namespace (task queue, invalidations, limits, locks): runs sharing the
    # Redis database, one after another or at once, never take each other's tasks.
    os.environ["VITRINE_REDIS_NAMESPACE"] = REDIS_NAMESPACE
    os.environ["VITRINE_INPROCESS_WORKERS"] = "false"
else:
    for name in ("VITRINE_DATABASE_URL", "VITRINE_REDIS_URL"):
        os.environ.pop(name, None)

from vitrine import db, ligacoes  # noqa: E402
from vitrine.settings import Settings  # noqa: E402


async def _create_pg_database() -> None:
    """The session's database, a copy of the run's migrated template (made by the first session)."""
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        with _run_lock():
            if not (_run_dir / "modelo-postgres").exists():
                await conn.execute(f'DROP DATABASE IF EXISTS "{_pg_template}"')
                await conn.execute(f'CREATE DATABASE "{_pg_template}"')
                template_url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{_pg_template}"
                await db.migrate(Settings(database_url=template_url))
                (_run_dir / "modelo-postgres").touch()
            await conn.execute(f'CREATE DATABASE "{_pg_database}" TEMPLATE "{_pg_template}"')
    finally:
        await conn.close()


async def _drop_pg_template() -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{_pg_template}" WITH (FORCE)')
    finally:
        await conn.close()


async def _drop_pg_database() -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{_pg_database}" WITH (FORCE)')
    finally:
        await conn.close()


class _Inbox:
    """Accepts every message into SMTP_INBOX, except as SMTP_CONTROL says."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in SMTP_CONTROL.hold:
            SMTP_CONTROL.held.append(address)
            while address in SMTP_CONTROL.hold:  # a stalled server: the client waits for its answer
                await asyncio.sleep(0.05)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        from email import message_from_bytes, policy

        message = message_from_bytes(envelope.content, policy=policy.default)
        if SMTP_CONTROL.refuse.get(message["Subject"], 0) > 0:
            SMTP_CONTROL.refuse[message["Subject"]] -= 1
            return "451 4.3.0 Try again later"
        SMTP_INBOX.append(message)
        return "250 Message accepted for delivery"


class SmtpControl:
    """How the session's SMTP server misbehaves for one test: `refuse[subject] = n` answers 451
    (a temporary failure) to the next n messages with that subject; while an address is in `hold`
    the server stalls at its RCPT, and `held` lists the addresses that reached the stall."""

    def __init__(self) -> None:
        self.refuse: dict[str, int] = {}
        self.hold: set[str] = set()
        self.held: list[str] = []


SMTP_CONTROL = SmtpControl()


_smtp = None
_worker: subprocess.Popen | None = None


def _start_worker() -> subprocess.Popen:
    """With Redis, tasks run in a real `vitrine worker` process, as in production."""
    log = open(_data_dir / "worker.log", "w")
    worker = start_vitrine("worker", "--workers", "1", env=os.environ.copy(), log=log)
    deadline = time.time() + 30
    while time.time() < deadline:
        if worker.poll() is not None:
            raise RuntimeError(f"vitrine worker exited: {(_data_dir / 'worker.log').read_text()}")
        if "Listening started" in (_data_dir / "worker.log").read_text():
            return worker
        time.sleep(0.2)
    raise RuntimeError("vitrine worker did not start in 30 s")


def _runs_tests(config: pytest.Config) -> bool:
    """False in the process that only hands tests to pytest-xdist's workers (`-n N`): each worker
    is a session of its own, with its own database, Redis namespace, SMTP, S3 and worker process."""
    return hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None)


def pytest_sessionstart(session: pytest.Session) -> None:
    # Tests that call a domain's services directly need its signals and ports connected, as every
    # process of the service has them.
    ligacoes.ligar()
    if not _runs_tests(session.config):
        return
    try:
        _start_components()
    except BaseException:
        # pytest runs no session finish after a start that failed or was interrupted (a Ctrl-C
        # while the worker starts): undo it here, so no database or Redis namespace is left behind.
        pytest_sessionfinish(session, 1)
        raise


def _start_components() -> None:
    global _smtp, _worker, _s3
    from aiosmtpd.controller import Controller

    _smtp = Controller(_Inbox(), hostname="127.0.0.1", port=SMTP_PORT)
    _smtp.start()
    if BACKEND == "postgres":
        from vitrine.infra.process import tied_to_this_process

        _s3 = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(S3_PORT)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=tied_to_this_process(),
        )
        asyncio.run(_create_pg_database())
        _create_bucket()
    else:
        migrated_sqlite_database(_data_dir)
    asyncio.run(db.migrate(Settings()))  # nothing left to apply: loads the catalogue's plans
    if BACKEND == "postgres":
        _worker = _start_worker()


# Migrating an empty database takes Tortoise seconds of CPU (it rebuilds every model of the
# schema's history for each operation), a copy milliseconds: every session of a run, and every test
# that needs a data directory of its own, starts from a copy of one database migrated once per run.
_SQLITE_TEMPLATE = _run_dir / "migrada.sqlite3"


@contextmanager
def _run_lock() -> Iterator[None]:
    """One session of the run at a time prepares what the others then copy."""
    import fcntl

    with open(_run_dir / "preparo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def migrated_sqlite_database(data_dir: Path) -> Path:
    """`data_dir` (made if missing) holding a SQLite database just migrated, nothing in it; the
    first call of the run migrates the template (in a `vitrine migrate` of its own)."""
    with _run_lock():
        if not _SQLITE_TEMPLATE.exists():
            import sqlite3

            from vitrine.infra.process import tied_to_this_process

            empty = Path(tempfile.mkdtemp(dir=_run_dir))
            env = os.environ | {"VITRINE_DATA_DIR": str(empty), "VITRINE_DATABASE_URL": ""}
            subprocess.run(
                [sys.executable, "-m", "vitrine", "migrate"],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                timeout=300,
                preexec_fn=tied_to_this_process(),
            )
            # SQLite's backup API: a consistent copy whatever is still in the write-ahead log.
            source, copy = sqlite3.connect(empty / "vitrine.sqlite3"), sqlite3.connect(_run_dir / "migrando.sqlite3")
            try:
                source.backup(copy)
            finally:
                source.close()
                copy.close()
            os.replace(_run_dir / "migrando.sqlite3", _SQLITE_TEMPLATE)
    data_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_SQLITE_TEMPLATE, data_dir / "vitrine.sqlite3")
    return data_dir


@pytest.fixture
def migrated_data_dir(tmp_path: Path) -> Path:
    """A data directory of its own (embedded default) with a database just migrated."""
    return migrated_sqlite_database(tmp_path / "dados")


def _create_bucket() -> None:
    import botocore.session

    s3 = botocore.session.get_session().create_client(
        "s3",
        endpoint_url=os.environ["VITRINE_S3_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id="teste",
        aws_secret_access_key="teste-segredo",
    )
    deadline = time.time() + 30
    while True:
        try:
            s3.create_bucket(Bucket=S3_BUCKET)
            return
        except Exception:  # the server is still starting
            if time.time() > deadline or (_s3 is not None and _s3.poll() is not None):
                raise
            time.sleep(0.2)


def _stop_worker(worker: subprocess.Popen) -> None:
    os.killpg(worker.pid, signal.SIGTERM)
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _worker is not None:
        _stop_worker(_worker)
    if _smtp is not None:
        _smtp.stop()
    if BACKEND == "postgres" and _runs_tests(session.config):
        asyncio.run(_drop_pg_database())
        asyncio.run(_drop_redis_namespace())
    if _s3 is not None:
        os.killpg(_s3.pid, signal.SIGTERM)
        _s3.wait(timeout=20)
    shutil.rmtree(_data_dir, ignore_errors=True)
    if not hasattr(session.config, "workerinput"):  # the run's own process: its sessions have ended
        if BACKEND == "postgres":
            asyncio.run(_drop_pg_template())
        shutil.rmtree(_run_dir, ignore_errors=True)


async def _drop_redis_namespace() -> None:
    from redis.asyncio import Redis

    redis = Redis.from_url(REDIS_URL)
    try:
        keys = [key async for key in redis.scan_iter(match=f"{REDIS_NAMESPACE}:*", count=1000)]
        if keys:
            await redis.delete(*keys)
    finally:
        await redis.aclose()


def pytest_report_header(config: pytest.Config) -> str:
    if BACKEND == "postgres":
        return f"vitrine back end: PostgreSQL ({_pg_database}) + Redis ({REDIS_URL}) + S3 (moto, bucket {S3_BUCKET})"
    return f"vitrine back end: embedded default (SQLite in {_data_dir}, in-process broker)"


@pytest.fixture
def worker_process():
    """The session's `vitrine worker` (PostgreSQL + Redis leg only), with a way to kill it with
    SIGKILL, as a crash would, and start a new one; skips on the embedded default."""
    if BACKEND != "postgres":
        pytest.skip("needs a separate worker process: runs on the PostgreSQL + Redis leg")

    class Control:
        @property
        def pid(self) -> int:
            return _worker.pid

        @property
        def log(self) -> Path:
            return _data_dir / "worker.log"

        def kill(self) -> None:
            os.killpg(_worker.pid, signal.SIGKILL)
            _worker.wait()

        def start(self) -> None:
            global _worker
            _worker = _start_worker()

    control = Control()
    yield control
    if _worker.poll() is not None:  # a test left it dead: the rest of the session needs one
        control.start()


@pytest.fixture
def settings() -> Settings:
    # The test apps write the call log in process: a call-log process for each would cost each test
    # a Python start-up. The `vitrine serve` processes tests start run the default (its own process),
    # and tests/api/test_call_log_process.py runs it under test apps.
    return Settings(call_log_process=False)


@pytest.fixture
def smtp_inbox() -> list:
    """Messages the session's real SMTP server received (cleared for each test)."""
    SMTP_INBOX.clear()
    return SMTP_INBOX


@pytest.fixture
def smtp_control():
    """The session's SMTP server's misbehaviour for this test (SmtpControl), reset afterwards."""
    yield SMTP_CONTROL
    SMTP_CONTROL.hold.clear()
    SMTP_CONTROL.refuse.clear()
    SMTP_CONTROL.held.clear()


def served(app):
    """A test server for `app` built as `vitrine serve` builds its own (vitrine/http_server.py: the
    connection limits, the parser's refusals in the catalog's envelope)."""
    from aiohttp.test_utils import TestServer

    from vitrine.http_server import Runner

    class Server(TestServer):
        async def _make_runner(self, **kwargs):
            # aiohttp's test server cancels a handler whose client left; `vitrine serve` does not
            kwargs["handler_cancellation"] = False
            return Runner(self.app, **kwargs)

    return Server(app)


@pytest.fixture
async def client(aiohttp_client, settings):
    """The whole application on a real aiohttp test server, with its real database."""
    from vitrine.app import create_app

    return await aiohttp_client(served(create_app(settings)))


@pytest.fixture
async def https_server(aiohttp_server):
    """Start a real HTTPS server for an aiohttp Application; returns its base URL
    (https://localhost:<port>), trusted by the service through the test CA."""

    async def start(app):
        server = await aiohttp_server(app, ssl=server_context(SERVER_CERT, SERVER_KEY))
        return f"https://localhost:{server.port}"

    return start
