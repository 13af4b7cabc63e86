"""The per-minute limits an integrator's plan gives, for authentication (API keys and OAuth
tokens cache them with the credential; a plan change clears those caches)."""

from __future__ import annotations

from graphql_api.creditos import catalogo, repository


async def do_plano(integrador_id: str, ambiente: str) -> tuple[int, int] | None:
    """(per key, per integrator) of the environment's plan: the subscription's, or the initial
    plan's for an integrator without one yet; None when the catalogue is empty."""
    limites = await repository.limites_de(integrador_id, ambiente)
    if limites is not None:
        return limites
    inicial = await repository.vigente(catalogo.plano_inicial())
    return (inicial.limite_por_minuto_chave, inicial.limite_por_minuto_integrador) if inicial else None
