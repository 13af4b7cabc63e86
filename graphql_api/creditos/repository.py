"""Queries of the credits domain: a wallet is found by integrator and environment; the plans'
catalogue versions and the subscriptions."""

from __future__ import annotations

from datetime import datetime

from graphql_api.creditos.models import Assinatura, Carteira, Lancamento, Plano


async def carteira_of(integrador_id: str, ambiente: str) -> Carteira | None:
    return await Carteira.get_or_none(integrador_id=integrador_id, ambiente=ambiente)


async def travar_carteira(integrador_id: str, ambiente: str) -> Carteira | None:
    """The wallet, locked until the transaction ends: reservations and settlements never interleave."""
    return await Carteira.select_for_update().filter(integrador_id=integrador_id, ambiente=ambiente).first()


def lancamentos_of(carteira_id: int):
    return Lancamento.filter(carteira_id=carteira_id)


async def reservas_da_geracao(carteira_id: int, geracao_id: str) -> list[Lancamento]:
    """The reservation entries of one generation: which pools its credits came from, and when."""
    return await Lancamento.filter(carteira_id=carteira_id, geracao_id=geracao_id, tipo="reserva")


async def vigentes() -> list[Plano]:
    """The plans offered now, cheapest first."""
    return await Plano.filter(vigente=True).order_by("ordem", "preco_centavos", "codigo")


async def vigente(codigo: str) -> Plano | None:
    return await Plano.filter(codigo=codigo, vigente=True).first()


async def ultima_versao(codigo: str) -> Plano | None:
    return await Plano.filter(codigo=codigo).order_by("-versao").first()


async def codigos() -> set[str]:
    return {row["codigo"] for row in await Plano.all().distinct().values("codigo")}


async def retirar_versoes(codigo: str, exceto: str) -> None:
    """Stop offering every version of `codigo` but the one just published."""
    await Plano.filter(codigo=codigo, vigente=True).exclude(id=exceto).update(vigente=False)


async def assinatura_de(integrador_id: str, ambiente: str) -> Assinatura | None:
    return (
        await Assinatura.filter(integrador_id=integrador_id, ambiente=ambiente)
        .select_related("plano", "plano_agendado")
        .first()
    )


async def limites_de(integrador_id: str, ambiente: str) -> tuple[int, int] | None:
    """Per-minute limits (key, integrator) of the subscription's plan; None without one."""
    rows = await Assinatura.filter(integrador_id=integrador_id, ambiente=ambiente).values(
        "plano__limite_por_minuto_chave", "plano__limite_por_minuto_integrador"
    )
    if not rows:
        return None
    return rows[0]["plano__limite_por_minuto_chave"], rows[0]["plano__limite_por_minuto_integrador"]


async def vencidas(ate: datetime, limite: int) -> list[tuple[str, str]]:
    """(integrator, environment) of subscriptions whose cycle ended by `ate`, oldest first."""
    rows = (
        await Assinatura.filter(ciclo_fim_em__lte=ate)
        .order_by("ciclo_fim_em")
        .limit(limite)
        .values_list("integrador_id", "ambiente")
    )
    return [(integrador_id, ambiente) for integrador_id, ambiente in rows]
