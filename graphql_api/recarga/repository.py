"""Queries of purchases: the catalogue, the tenant's purchases, the row lock a confirmation takes
and the conditional updates of the state machine (only a pendente purchase ever changes)."""

from __future__ import annotations

from datetime import datetime

from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import tenant_filter
from graphql_api.recarga.models import ConfirmacaoPagamento, Pacote, Recarga


async def pacotes_a_venda() -> list[Pacote]:
    return await Pacote.filter(ativo=True).order_by("ordem", "codigo")


async def pacote_a_venda(codigo: str) -> Pacote | None:
    return await Pacote.get_or_none(codigo=codigo, ativo=True)


def visiveis(principal: Principal):
    """The purchases of the caller's integrator in its environment."""
    return Recarga.filter(**tenant_filter(principal))


async def visivel(principal: Principal, recarga_id: str) -> Recarga | None:
    return await visiveis(principal).filter(id=recarga_id).first()


async def do_integrador(integrador_id: str, recarga_id: str) -> Recarga | None:
    """A purchase of the integrator in either environment (its checkout page serves both)."""
    return await Recarga.get_or_none(id=recarga_id, integrador_id=integrador_id)


async def travada(recarga_id: str) -> Recarga | None:
    """The purchase, locked until the transaction ends: its confirmations apply one at a time."""
    return await Recarga.select_for_update().filter(id=recarga_id).first()


async def confirmacao(confirmacao_id: str) -> ConfirmacaoPagamento | None:
    return await ConfirmacaoPagamento.get_or_none(id=confirmacao_id)


async def encerrar_se_pendente(recarga_id: str, situacao: str, quando: datetime, **campos) -> bool:
    """pendente -> situacao; False when it was no longer pendente (the WHERE is the rule)."""
    momento = {"paga_em": quando} if situacao == "paga" else {"encerrada_em": quando}
    mudou = await Recarga.filter(id=recarga_id, situacao="pendente").update(
        situacao=situacao, atualizado_em=quando, **momento, **campos
    )
    return mudou == 1


async def expirar_vencidas(quando: datetime, **escopo) -> int:
    """Every pendente purchase (of `escopo`, or all) whose time ran out becomes expirada."""
    return await Recarga.filter(situacao="pendente", expira_em__lte=quando, **escopo).update(
        situacao="expirada", encerrada_em=quando, atualizado_em=quando
    )


async def pagas_entre(integrador_id: str, ambiente: str, desde: datetime, ate: datetime) -> list[Recarga]:
    """Packages paid in [desde, ate), oldest first: the credit alerts compare two cycles of them
    (graphql_api/creditos/avaliacao.py)."""
    return await Recarga.filter(
        integrador_id=integrador_id, ambiente=ambiente, situacao="paga", paga_em__gte=desde, paga_em__lt=ate
    ).order_by("paga_em")
