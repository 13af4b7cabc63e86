"""Ending authorisations: every way in (the seller's page, /oauth/revogar, a replayed code, a
wrong code_verifier, a reused refresh token) ends whole authorisations here, pauses the linked
accounts left without one, and tells every process to forget what it cached."""

from __future__ import annotations

from graphql_api.core.relogio import agora
from graphql_api.core.transactions import transaction
from graphql_api.oauth import repository
from graphql_api.oauth.cache import CACHE_TOPIC


async def revogar_autorizacoes(ids: list[str], *, motivo: str, bus) -> int:
    """Revoke these authorisations (those still active); returns how many ended now. A linked
    account pauses when no active authorisation of any app is left on it."""
    if not ids:
        return 0
    async with transaction():
        terminadas = await repository.revogar(ids, agora(), motivo)
        if terminadas:
            await repository.pausar_contas_sem_autorizacao(ids)
    if terminadas and bus is not None:
        await bus.publish(CACHE_TOPIC)
    return terminadas
