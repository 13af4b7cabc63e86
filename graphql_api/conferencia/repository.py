from datetime import datetime
from typing import cast

from tortoise.expressions import F, Q, Subquery

from graphql_api.conferencia.models import Conferencia, Foto
from graphql_api.core.filas import Fila, mais_antigo
from graphql_api.produto.models import Produto

AGENDADA, EM_ANDAMENTO, CONCLUIDA, FALHOU, CANCELADA = "agendada", "em_andamento", "concluida", "falhou", "cancelada"
PENDENTES = (AGENDADA, EM_ANDAMENTO)


async def atual(produto_id: str, versao: int) -> Conferencia | None:
    """The latest check of a version of the product (cancelled ones do not count)."""
    return await (
        Conferencia.filter(produto_id=produto_id, versao_produto=versao)
        .exclude(situacao=CANCELADA)
        .order_by("-id")  # ids are time-ordered
        .first()
    )


async def admitidas_desde(produto_id: str, since: datetime) -> list[datetime]:
    """When each check of the product that entered the daily count since `since` did, oldest first."""
    rows = (
        await Conferencia.filter(produto_id=produto_id, admitida_em__gte=since)
        .order_by("admitida_em")
        .values_list("admitida_em", flat=True)
    )
    return cast(list[datetime], rows)  # tortoise types flat values_list rows as tuples


async def agendada(produto_id: str) -> Conferencia | None:
    return await Conferencia.filter(produto_id=produto_id, situacao=AGENDADA).first()


async def cancelar_pendentes(
    produto_id: str, *, situacoes: tuple[str, ...] = PENDENTES, exceto: str | None = None
) -> int:
    query = Conferencia.filter(produto_id=produto_id, situacao__in=situacoes)
    if exceto is not None:
        query = query.exclude(id=exceto)
    return await query.update(situacao=CANCELADA, reservada_ate=None)


async def reservar(conferencia_id: str, now: datetime, until: datetime) -> bool:
    """Take the lease of a running check, unless another worker holds it or it is not running."""
    updated = await Conferencia.filter(
        Q(id=conferencia_id), Q(situacao=EM_ANDAMENTO), Q(reservada_ate__isnull=True) | Q(reservada_ate__lt=now)
    ).update(reservada_ate=until, tentativas=F("tentativas") + 1)
    return updated == 1


async def agendadas_vencidas(now: datetime) -> list[str]:
    ids = await Conferencia.filter(situacao=AGENDADA, executar_em__lte=now).values_list("id", flat=True)
    return cast(list[str], ids)  # tortoise types flat values_list rows as tuples


async def paradas(now: datetime, kicked_before: datetime) -> list[Conferencia]:
    """Running checks nobody is working on: the lease ran out, or no worker ever took the message."""
    return await Conferencia.filter(
        Q(situacao=EM_ANDAMENTO),
        Q(reservada_ate__lt=now) | Q(reservada_ate__isnull=True, admitida_em__lt=kicked_before),
    )


async def ultima_foto(produto_id: str, url_hash: str) -> Foto | None:
    return await Foto.filter(produto_id=produto_id, url_hash=url_hash).order_by("-verificada_em", "-id").first()


async def foto_por_conteudo(produto_id: str, url_hash: str, sha256: str) -> Foto | None:
    return await Foto.filter(produto_id=produto_id, url_hash=url_hash, sha256=sha256).first()


async def fila(now: datetime) -> Fila:
    """Admitted checks not yet concluded, and scheduled ones whose slot came (the sweep:
    agendadas_vencidas, paradas); one waiting for its daily slot is not due."""
    andamento = Conferencia.filter(situacao=EM_ANDAMENTO)
    vencidas = Conferencia.filter(situacao=AGENDADA, executar_em__lte=now)
    itens = await andamento.count() + await vencidas.count()
    return Fila(itens, await mais_antigo((andamento, "admitida_em"), (vencidas, "executar_em")))


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """The test environment's checks and photos (graphql_api/core/dados_de_teste.py)."""
    teste = {"integrador_id": integrador_id, "ambiente": "teste"}
    produtos = Produto.filter(**teste).values("id")
    return {
        "conferencias": await Conferencia.filter(**teste).delete(),
        "fotos": await Foto.filter(produto_id__in=Subquery(produtos)).delete(),
    }
