"""Queries of the credits domain: a wallet is found by integrator and environment."""

from __future__ import annotations

from graphql_api.creditos.models import Carteira, Lancamento


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
