"""Credits: one wallet per integrator and environment. The test wallet holds free play credits."""

from __future__ import annotations

from graphql_api.core.principal import Ambiente, Principal
from graphql_api.creditos.models import Carteira

# Play credits a new test wallet starts with (refilled for free in the portal).
CREDITOS_INICIAIS_TESTE = 1000

# The routes that spend credits: they require Idempotency-Key (contract, "Idempotency rules").
CREDIT_SPENDING_ENDPOINTS = frozenset({"/galerias", "/videos", "/imagens/{imagemId}/edicoes"})


async def abrir_carteiras(integrador_id: str) -> None:
    await Carteira.get_or_create(
        integrador_id=integrador_id,
        ambiente=Ambiente.TESTE.value,
        defaults={"creditos_disponiveis": CREDITOS_INICIAIS_TESTE},
    )
    await Carteira.get_or_create(integrador_id=integrador_id, ambiente=Ambiente.PRODUCAO.value)


async def obter_saldo(principal: Principal) -> Carteira:
    carteira = await Carteira.get_or_none(
        integrador_id=principal.integrador_id, ambiente=principal.ambiente.value
    )
    if carteira is None:  # integrators created before wallets existed
        await abrir_carteiras(principal.integrador_id)
        carteira = await Carteira.get(
            integrador_id=principal.integrador_id, ambiente=principal.ambiente.value
        )
    return carteira
