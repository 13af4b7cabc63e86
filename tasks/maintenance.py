"""Periodic jobs: retention (call-log bodies after 30 days and records after 90, idempotency keys
after 7, expired portal and seller sessions, sign-in failures and password links, expired OAuth
codes and tokens; each in bounded batches within a time budget, graphql_api/core/purge.py), the turn of the plans' monthly cycles, the expiry of unpaid purchases and
the recovery sweeps of quality checks, generations, e-mail and notices."""

from graphql_api.chamada import service as chamadas
from graphql_api.core.purge import Purge
from graphql_api.creditos import planos
from graphql_api.idempotencia import service as idempotency_store
from graphql_api.oauth import tokens as oauth_tokens
from graphql_api.recarga import service as recargas
from graphql_api.usuario import sessoes
from graphql_api.vendedor import sessoes as sessoes_vendedor
from tasks import avisos, conferencia, email, geracao
from tasks.broker import broker, runtime
from vitrine import db
from vitrine.settings import Settings


@broker.task(task_name="manutencao.expurgar_chamadas")
async def expurgar_chamadas() -> dict:
    purge = Purge()
    bodies, rows = await chamadas.expurgar(purge=purge)
    # Logged with every periodic run's outcome (tasks/middleware.py): at INFO when it removed something.
    return {"corposApagados": bodies, "registrosRemovidos": rows, "concluido": purge.finished}


@broker.task(task_name="manutencao.expurgar_idempotencia")
async def expurgar_idempotencia() -> dict:
    purge = Purge()
    removed = await idempotency_store.expurgar(purge=purge)
    return {"chavesRemovidas": removed, "concluido": purge.finished}


@broker.task(task_name="manutencao.expurgar_sessoes")
async def expurgar_sessoes() -> dict:
    purge = Purge()  # one budget for the three kinds
    sessions, failures, links = await sessoes.expurgar(purge=purge)
    seller_sessions = await sessoes_vendedor.expurgar(purge=purge)
    return {
        "sessoesRemovidas": sessions,
        "sessoesVendedorRemovidas": seller_sessions,
        "tentativasRemovidas": failures,
        "linksRemovidos": links,
        "concluido": purge.finished,
    }


@broker.task(task_name="manutencao.expurgar_oauth")
async def expurgar_oauth() -> dict:
    purge = Purge()
    codes, tokens, failures = await oauth_tokens.expurgar(purge=purge)
    return {
        "codigosRemovidos": codes,
        "tokensRemovidos": tokens,
        "falhasRemovidas": failures,
        "concluido": purge.finished,
    }


@broker.task(task_name="planos.virar_ciclos")
async def virar_ciclos() -> dict:
    """Turn the subscriptions whose monthly cycle ended (reads and spends also do it lazily)."""
    return await planos.virar_ciclos(bus=runtime().bus)


# Cycles turn at any minute of the day: checked every 5 minutes (a read or spend turns it at once anyway).
CICLOS_SECONDS = 300


# Purchases past their deadline become expirada (reads expire them too; this keeps the table true).
RECARGAS_SWEEP_SECONDS = 60


@broker.task(task_name="recarga.expirar")
async def expirar_recargas() -> dict:
    return {"recargasExpiradas": await recargas.expirar_vencidas()}


@broker.task(task_name="manutencao.estatisticas")
async def atualizar_estatisticas() -> dict:
    await db.atualizar_estatisticas()
    return {}


def periodic(settings: Settings) -> list:
    """The jobs of tasks/scheduler.py, in every topology: a task runs hourly, a (task, seconds)
    pair at its own period. Every piece of background work is a row first; these sweeps are how
    a failed attempt is retried and a lost message or a dead worker's task is recovered."""
    return [
        expurgar_chamadas,
        expurgar_idempotencia,
        expurgar_sessoes,
        expurgar_oauth,
        atualizar_estatisticas,
        (virar_ciclos, CICLOS_SECONDS),
        (conferencia.varrer, conferencia.SWEEP_SECONDS),
        (geracao.varrer, geracao.SWEEP_SECONDS),
        (email.varrer, settings.email_varredura_segundos),
        (avisos.varrer, settings.aviso_varredura_segundos),
        (expirar_recargas, RECARGAS_SWEEP_SECONDS),
    ]
