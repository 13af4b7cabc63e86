"""Fixtures for the real components the suite runs against.

Back end: the embedded default (a SQLite file, in-process broker) unless VITRINE_TEST_BACKEND is
`postgres`, in which case a fresh PostgreSQL database and a Redis database are used (created here,
dropped at the end). The test command (scripts/test) runs the suite once per back end."""

from __future__ import annotations

import asyncio
import os
import secrets
import tempfile
from pathlib import Path

import pytest

BACKEND = os.environ.get("VITRINE_TEST_BACKEND", "sqlite")
PG_ADMIN_URL = os.environ.get("VITRINE_TEST_PG_ADMIN", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("VITRINE_TEST_REDIS", "redis://127.0.0.1:6379/13")

_session_id = secrets.token_hex(4)
_data_dir = Path(tempfile.mkdtemp(prefix=f"vitrine-test-{_session_id}-"))
_pg_database = f"vitrine_test_{_session_id}"

# Settings are read from the environment by every process the tests start (workers, CLI), so the
# back end is chosen here, before the application modules are imported.
os.environ["VITRINE_DATA_DIR"] = str(_data_dir)
os.environ["VITRINE_SECRET_KEY"] = "test-secret-key"
os.environ["VITRINE_CALL_LOG_FLUSH_SECONDS"] = "0.05"
os.environ.setdefault("VITRINE_PUBLIC_URL", "http://vitrine.test")
if BACKEND == "postgres":
    os.environ["VITRINE_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{_pg_database}"
    os.environ["VITRINE_REDIS_URL"] = REDIS_URL
    os.environ["VITRINE_TASK_QUEUE"] = f"vitrine-test-{_session_id}"
    os.environ["VITRINE_INPROCESS_WORKERS"] = "false"
else:
    for name in ("VITRINE_DATABASE_URL", "VITRINE_REDIS_URL"):
        os.environ.pop(name, None)

from vitrine import db  # noqa: E402
from vitrine.settings import Settings  # noqa: E402


async def _create_pg_database() -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(f'CREATE DATABASE "{_pg_database}"')
    finally:
        await conn.close()


async def _drop_pg_database() -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{_pg_database}" WITH (FORCE)')
    finally:
        await conn.close()


def pytest_sessionstart(session: pytest.Session) -> None:
    if BACKEND == "postgres":
        asyncio.run(_create_pg_database())
    asyncio.run(db.migrate(Settings()))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if BACKEND == "postgres":
        asyncio.run(_drop_pg_database())


def pytest_report_header(config: pytest.Config) -> str:
    if BACKEND == "postgres":
        return f"vitrine back end: PostgreSQL ({_pg_database}) + Redis ({REDIS_URL})"
    return f"vitrine back end: embedded default (SQLite in {_data_dir}, in-process broker)"


@pytest.fixture
def settings() -> Settings:
    return Settings()


@pytest.fixture
async def client(aiohttp_client, settings):
    """The whole application on a real aiohttp test server, with its real database."""
    from vitrine.app import create_app

    return await aiohttp_client(create_app(settings))


pytest_plugins = ["tests.factories"]
