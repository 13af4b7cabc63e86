"""The ledger: every movement of a wallet's credits is one entry here, and each balance always
equals the sum of its column in the entries. Only the movement itself: what a movement sets off
(the low-balance watch, quota thresholds) is the caller's (graphql_api/creditos/service.py and the
plans' cycle, graphql_api/creditos/virada.py)."""

from __future__ import annotations

from datetime import datetime

from graphql_api.core.ids import new_id
from graphql_api.core.relogio import agora
from graphql_api.creditos.models import Carteira, Lancamento


async def lancar(
    carteira: Carteira,
    tipo: str,
    *,
    disponiveis: int,
    reservados: int,
    descricao: str,
    geracao_id: str | None = None,
    plano: int | None = None,
    recarga_id: str | None = None,
    em: datetime | None = None,
) -> Lancamento:
    """Move credits between the wallet's available and reserved sides, with its ledger entry.
    Available credits live in two pools: `plano` (expire at the cycle's end) and the package pool
    (the rest of `disponiveis`). A debit takes plan credits first, unless `plano` says otherwise."""
    if plano is None:
        plano = -min(carteira.creditos_plano, -disponiveis) if disponiveis < 0 else 0
    pacote = disponiveis - plano
    carteira.creditos_disponiveis += disponiveis
    carteira.creditos_plano += plano
    carteira.creditos_pacote += pacote
    carteira.creditos_reservados += reservados
    await carteira.save(
        update_fields=[
            "creditos_disponiveis",
            "creditos_plano",
            "creditos_pacote",
            "creditos_reservados",
            "atualizado_em",
        ]
    )
    momento = em or agora()  # the domain's clock (a cycle's entries are dated at its turn)
    lancamento = await Lancamento.create(
        id=new_id("lan_", momento),  # the id agrees with the date: a date filter is an id range
        carteira=carteira,
        tipo=tipo,
        disponiveis=disponiveis,
        reservados=reservados,
        plano=plano,
        pacote=pacote,
        disponiveis_apos=carteira.creditos_disponiveis,
        geracao_id=geracao_id,
        recarga_id=recarga_id,
        descricao=descricao[:300],
        criado_em=momento,
    )
    return lancamento


# -- movements of the plans' cycle (graphql_api/creditos/virada.py) ------------------------


async def conceder_plano(carteira: Carteira, creditos: int, descricao: str, *, em: datetime | None = None) -> None:
    """Plan credits into the plan pool: a cycle's quota, or an upgrade's difference."""
    await lancar(
        carteira, "concessao_plano", disponiveis=creditos, reservados=0, plano=creditos, descricao=descricao, em=em
    )


async def expirar_plano(carteira: Carteira, descricao: str, *, em: datetime | None = None) -> None:
    """The plan pool's remaining credits leave the wallet at the cycle's end."""
    restantes = carteira.creditos_plano
    await lancar(
        carteira, "expiracao_plano", disponiveis=-restantes, reservados=0, plano=-restantes, descricao=descricao, em=em
    )
