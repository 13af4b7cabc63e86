"""Generation queries: the caller's slice, and the conditional updates of the state machine (the
WHERE of each is the rule that keeps two workers from taking the same generation)."""

from datetime import datetime

from tortoise.expressions import F, Q, Subquery
from tortoise.queryset import QuerySet

from graphql_api.conta import repository as contas
from graphql_api.core.filas import Fila, mais_antigo
from graphql_api.core.prepared import ReadByPk
from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import account_filter, can_see
from graphql_api.geracao.models import Geracao

NA_FILA, PROCESSANDO, CONCLUIDA, PARCIAL, FALHOU = "na_fila", "processando", "concluida", "parcial", "falhou"

_read_geracao = ReadByPk(Geracao)


async def get_visible(principal: Principal, geracao_id: str) -> Geracao | None:
    # By primary key, then the tenant rule: the cheapest read on the API's busiest route.
    geracao = await _read_geracao.get_or_none(geracao_id)
    if geracao is None or not can_see(principal, geracao):
        return None
    # A linked account's generations: only through its own OAuth token (conta/service.py).
    if principal.conta_id is None and await contas.e_vinculada(geracao.conta_id):
        return None
    return geracao


def of_caller(principal: Principal, *, produto_id: str | None = None) -> QuerySet[Geracao]:
    query = Geracao.filter(**account_filter(principal))
    if principal.conta_id is None:
        query = query.exclude(conta_id__in=Subquery(contas.vinculadas_de(principal.integrador_id)))
    return query.filter(produto_id=produto_id) if produto_id is not None else query


async def reservar(geracao_id: str, now: datetime, lease_until: datetime) -> bool:
    """Queued, or processing with an expired lease: this worker takes it (one more attempt)."""
    taken = await Geracao.filter(
        Q(situacao=NA_FILA) | Q(situacao=PROCESSANDO, reservada_ate__lt=now),
        id=geracao_id,
    ).update(
        situacao=PROCESSANDO,
        reservada_ate=lease_until,
        tentativas=F("tentativas") + 1,
        etapa="preparando_fotos",
        percentual=5,
    )
    if taken:
        await Geracao.filter(id=geracao_id, iniciada_em__isnull=True).update(iniciada_em=now)
    return bool(taken)


async def exists(geracao_id: str) -> bool:
    return await Geracao.filter(id=geracao_id).exists()


async def record_progress(geracao_id: str, etapa: str, percentual: int) -> None:
    await Geracao.filter(id=geracao_id, situacao=PROCESSANDO).update(etapa=etapa, percentual=percentual)


async def extend_lease(geracao_id: str, lease_until: datetime) -> None:
    await Geracao.filter(id=geracao_id, situacao=PROCESSANDO).update(reservada_ate=lease_until)


async def liberar(geracao_id: str) -> None:
    """A worker gives it back to the queue (the sweep sends it again)."""
    await Geracao.filter(id=geracao_id, situacao=PROCESSANDO).update(
        situacao=NA_FILA, reservada_ate=None, etapa=NA_FILA
    )


async def lease_expired(now: datetime) -> list[Geracao]:
    return await Geracao.filter(situacao=PROCESSANDO, reservada_ate__lt=now)


async def requeue_expired(geracao_id: str, now: datetime) -> bool:
    """Back to the queue if its lease is still expired (no worker took it meanwhile)."""
    return bool(
        await Geracao.filter(id=geracao_id, situacao=PROCESSANDO, reservada_ate__lt=now).update(
            situacao=NA_FILA, reservada_ate=None, etapa=NA_FILA, enfileirada_em=now
        )
    )


async def queued_before(moment: datetime) -> list[Geracao]:
    return await Geracao.filter(situacao=NA_FILA, enfileirada_em__lt=moment)


async def mark_queued(geracao_id: str, now: datetime) -> None:
    await Geracao.filter(id=geracao_id, situacao=NA_FILA).update(enfileirada_em=now)


async def fila(now: datetime) -> Fila:
    """Queued or rendering generations, due since they were asked for (the sweep: queued_before,
    lease_expired)."""
    pendentes = Geracao.filter(situacao__in=(NA_FILA, PROCESSANDO))
    return Fila(await pendentes.count(), await mais_antigo((pendentes, "criado_em")))


async def em_curso_de_teste(integrador_id: str) -> list[dict]:
    """Test generations whose credits are still reserved (not settled yet)."""
    return await Geracao.filter(
        integrador_id=integrador_id, ambiente="teste", situacao__in=("na_fila", "processando")
    ).values("id", "creditos_reservados")


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """The test environment's generations (graphql_api/core/dados_de_teste.py); their reservations
    were settled first (graphql_api/geracao/service.liberar_reservas_de_teste)."""
    return {"geracoes": await Geracao.filter(integrador_id=integrador_id, ambiente="teste").delete()}
