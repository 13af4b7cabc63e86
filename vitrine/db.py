"""Database set-up: the Tortoise configuration, connection lifetime and migrations."""

from __future__ import annotations

from pathlib import Path

from tortoise import Tortoise, connections
from tortoise.backends.base.config_generator import expand_db_url
from tortoise.context import TortoiseContext
from tortoise.migrations.api import migrate as run_migrations

from graphql_api.chamada.models import CALL_LOG_CONNECTION
from graphql_api.core.purge import PURGE_CONNECTION
from graphql_api.core.transactions import MAIN_CONNECTION
from vitrine.settings import Settings

APP_LABEL = "vitrine"

# Tortoise turns model docstrings into table comments and does not escape quotes in them on
# SQLite, and splits migration SQL at semicolons: keep ' and ; out of model docstrings.
MODEL_MODULES = [
    "graphql_api.integrador.models",
    "graphql_api.chave.models",
    "graphql_api.conta.models",
    "graphql_api.produto.models",
    "graphql_api.conferencia.models",
    "graphql_api.geracao.models",
    "graphql_api.imagem.models",
    "graphql_api.creditos.models",
    "graphql_api.chamada.models",
    "graphql_api.evento.models",
    "graphql_api.email.models",
    "graphql_api.integracao.models",
    "graphql_api.equipe.models",
    "graphql_api.aviso.models",
    "graphql_api.usuario.models",
    "graphql_api.idempotencia.models",
    "graphql_api.vendedor.models",
    "graphql_api.oauth.models",
    "graphql_api.recarga.models",
]


async def _keep_session(connection) -> None:
    """asyncpg runs RESET ALL, CLOSE ALL, UNLISTEN * and pg_advisory_unlock_all() on every
    connection it takes back into its pool: a second round trip for each query Tortoise makes
    outside a transaction. Vitrine changes no session state, listens to nothing and takes no
    advisory locks, and asyncpg still rolls back a transaction left open, so nothing is reset."""


# On SQLite the call log's connection thread runs at background_niceness above the requests' nice
# value, when the web process writes the call log itself (the call log's own process runs lowered
# as a whole, and its thread at that same value): its bursts of INSERTs then no longer delay the
# requests in flight. Not lower: the thread holds SQLite's write lock while it inserts, and a
# request that writes waits for it, so it must still get a share of a busy core. Retention's
# connection keeps the default: its deletes hold the lock longer. Figures:
# docs/decisoes/0001-registro-de-chamadas.md.


def _connection(url: str, pool_size: int | None = None, *, background_niceness: int = 0) -> str | dict:
    if url.startswith("sqlite://"):
        Path(url.removeprefix("sqlite://").split("?")[0]).parent.mkdir(parents=True, exist_ok=True)
        config = expand_db_url(url) | {"engine": "vitrine.infra.sqlite"}  # BEGIN IMMEDIATE transactions
        if background_niceness:
            config["credentials"]["thread_niceness"] = background_niceness
        return config
    config = expand_db_url(url)
    if config["engine"] == "tortoise.backends.asyncpg":
        config["credentials"]["reset"] = _keep_session
        if pool_size is not None:
            config["credentials"].setdefault("maxsize", pool_size)  # ?maxsize= in the URL wins
    return config


def tortoise_config(settings: Settings, *, background_threads: bool = True) -> dict:
    """`background_threads=False` in a process that runs lowered as a whole (the call log's own,
    vitrine/call_log_process.py): its connection thread is not lowered again on top of that."""
    url = settings.resolved_database_url
    return {
        "connections": {
            MAIN_CONNECTION: _connection(url, settings.database_pool_size),
            # one writer flushing batches
            CALL_LOG_CONNECTION: _connection(
                url, background_niceness=settings.background_niceness if background_threads else 0
            ),
            # Retention's batches, one statement at a time; opened on first use.
            PURGE_CONNECTION: _connection(url, 1),
        },
        "apps": {
            APP_LABEL: {
                "models": MODEL_MODULES,
                "migrations": "vitrine.migrations",
                "default_connection": MAIN_CONNECTION,
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


async def migrate(settings: Settings) -> None:
    """Apply every pending versioned migration (vitrine/migrations), then load the plans of the
    catalogue's data file that the database lacks (graphql_api/creditos/catalogo.py): a data file,
    not a migration, so plans added to it later arrive with the next `vitrine migrate`."""
    try:
        await run_migrations(config=tortoise_config(settings))
    finally:
        await Tortoise.close_connections()
    from graphql_api.creditos import catalogo

    context = await connect(settings)
    try:
        await catalogo.sincronizar()
    finally:
        await context.close_connections()


async def atualizar_estatisticas() -> None:
    """Refresh SQLite's planner statistics (sqlite_stat1). With several indexes on one table (the
    call log has one per filter), a list filtered by two columns should walk the more selective
    one, and SQLite only knows which from ANALYZE; `analysis_limit` samples each index, so this
    costs milliseconds at any size. PostgreSQL's autovacuum keeps its own statistics."""
    connection = connections.get(MAIN_CONNECTION)
    if connection.capabilities.dialect == "sqlite":
        await connection.execute_script("PRAGMA analysis_limit=1000; ANALYZE;")


async def connect(settings: Settings, *, background_threads: bool = True) -> TortoiseContext:
    """Open the connections for this process. Close through the returned context: Tortoise keeps
    its connections in a context variable, so closing from another context (an aiohttp cleanup
    under pytest) would close nothing and leave the process hanging at exit."""
    config = tortoise_config(settings, background_threads=background_threads)
    return await Tortoise.init(config=config, _enable_global_fallback=True)


# For Tortoise's own CLI (`tortoise -c vitrine.db.TORTOISE_ORM makemigrations`).
TORTOISE_ORM = tortoise_config(Settings())
