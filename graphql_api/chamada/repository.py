from datetime import datetime

from tortoise.expressions import Q
from tortoise.functions import Count, Max

from graphql_api.chamada.models import Chamada
from graphql_api.core.purge import Purge
from graphql_api.oauth.models import AppOAuth


def of_tenant(integrador_id: str | None, ambiente: str):
    # None, a caller of no integrator, matches no row (every call is logged under its integrator)
    return Chamada.filter(integrador_id=integrador_id, ambiente=ambiente)


async def endpoints(query) -> list[str]:
    return list(await query.distinct().order_by("endpoint").values_list("endpoint", flat=True))


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


async def count_since(integrador_id: str, ambiente: str, since: datetime) -> tuple[int, int]:
    """(calls, calls answered 4xx/5xx) of a tenant since a moment."""
    recent = of_tenant(integrador_id, ambiente).filter(criado_em__gte=since)
    return await recent.count(), await recent.filter(status__gte=400).count()
