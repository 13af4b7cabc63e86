from datetime import datetime

from tortoise import connections
from tortoise.expressions import Q
from tortoise.functions import Count, Max

from graphql_api.chamada.models import CALL_LOG_CONNECTION, Chamada
from graphql_api.core.ids import FOLGA_DO_MOMENTO, id_do_momento
from graphql_api.core.purge import Purge
from graphql_api.oauth.models import AppOAuth


def of_tenant(integrador_id: str | None, ambiente: str):
    # None, a caller of no integrator, matches no row (every call is logged under its integrator)
    return Chamada.filter(integrador_id=integrador_id, ambiente=ambiente)


async def apps(integrador_id: str, ambiente: str) -> list[dict]:
    """The integrator's OAuth apps of one environment, by name (the call log's filter by app)."""
    return (
        await AppOAuth.filter(integrador_id=integrador_id, ambiente=ambiente)
        .order_by("nome", "id")
        .values("id", "nome", "situacao")
    )


async def errors_grouped(query) -> list[dict]:
    """Per error type: how many, the last request id (ids are time-ordered) and when."""
    return await (
        query.filter(codigo_erro__isnull=False)
        .annotate(total=Count("id"), ultimo_id=Max("id"), ultima_em=Max("criado_em"))
        .group_by("codigo_erro")
        .order_by("-total")
        .values("codigo_erro", "total", "ultimo_id", "ultima_em")
    )


async def purge(purge: Purge, bodies_before: datetime, rows_before: datetime) -> tuple[int, int]:
    """Bodies first (of the records that stay: the older ones go whole), then the records; both
    in the order of the criado_em index. A backlog of records to remove never keeps a body past
    its 30 days."""
    with_bodies = Chamada.filter(criado_em__gte=rows_before, criado_em__lt=bodies_before).filter(
        Q(corpo_enviado__isnull=False) | Q(corpo_recebido__isnull=False)
    )
    emptied = await purge.update(with_bodies, "criado_em", corpo_enviado=None, corpo_recebido=None)
    removed = 0
    if purge.finished:
        removed = await purge.delete(Chamada.filter(criado_em__lt=rows_before), "criado_em")
    return emptied, removed


def janela(integrador_id: str, ambiente: str, since: datetime):
    """A tenant's calls since a moment, as a range of an index ending in the id: the window's
    calls, never the history."""
    return of_tenant(integrador_id, ambiente).filter(
        id__gte=id_do_momento("req_", since, -FOLGA_DO_MOMENTO), criado_em__gte=since
    )


async def count_since(integrador_id: str, ambiente: str, since: datetime) -> tuple[int, int]:
    """(calls, calls answered 4xx/5xx) of a tenant since a moment: the judges run this on every
    batch of the call log. Read on the call log's own connection: the count reads every call of
    the window, and on SQLite the queries of one connection take turns, so on the requests'
    connection every request in flight would wait for it."""
    recent = janela(integrador_id, ambiente, since).using_db(connections.get(CALL_LOG_CONNECTION))
    return await recent.count(), await recent.filter(classe_status__in=(4, 5)).count()


# The distinct endpoints of a tenant's log, one index seek per endpoint: a loose index scan written
# as a recursive query, each step the first endpoint after the previous one off (tenant, endpoint,
# id). A DISTINCT would read the whole history to find a few dozen values. PostgreSQL takes the
# step as a LATERAL join (its EXPLAIN then shows the seek); SQLite has no LATERAL, and takes it as
# a scalar subquery, stopping at the NULL after the last value.
_PRIMEIRO = """SELECT * FROM (SELECT endpoint FROM chamadas WHERE integrador_id = {p1} AND ambiente = {p2}
                   ORDER BY endpoint LIMIT 1) AS primeiro"""
_SEGUINTE = """SELECT c.endpoint FROM chamadas c
               WHERE c.integrador_id = {p1} AND c.ambiente = {p2} AND c.endpoint > visto.endpoint
               ORDER BY c.endpoint LIMIT 1"""
_ENDPOINTS = {
    "postgres": f"""WITH RECURSIVE visto(endpoint) AS (
        {_PRIMEIRO}
        UNION ALL
        SELECT seguinte.endpoint FROM visto, LATERAL ({_SEGUINTE}) AS seguinte
    )
    SELECT endpoint FROM visto""",
    "sqlite": f"""WITH RECURSIVE visto(endpoint) AS (
        {_PRIMEIRO}
        UNION ALL
        SELECT ({_SEGUINTE}) FROM visto WHERE visto.endpoint IS NOT NULL
    )
    SELECT endpoint FROM visto WHERE endpoint IS NOT NULL""",
}


def consulta_endpoints(dialect: str, integrador_id: str | None, ambiente: str) -> tuple[str, list]:
    if dialect == "sqlite":  # positional marks, each value once per mark
        return _ENDPOINTS["sqlite"].format(p1="?", p2="?"), [integrador_id, ambiente] * 2
    return _ENDPOINTS["postgres"].format(p1="$1", p2="$2"), [integrador_id, ambiente]


async def endpoints(integrador_id: str | None, ambiente: str) -> list[str]:
    connection = Chamada._meta.db
    _, rows = await connection.execute_query(
        *consulta_endpoints(connection.capabilities.dialect, integrador_id, ambiente)
    )
    return [row["endpoint"] for row in rows]


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """The test environment's call log (graphql_api/core/dados_de_teste.py)."""
    return {"chamadas": await Chamada.filter(integrador_id=integrador_id, ambiente="teste").delete()}
