"""Generations: media orders and their lifecycle (na_fila -> concluida | parcial | falhou)."""

from __future__ import annotations

from graphql_api.core.errors import ApiError
from graphql_api.core.principal import Principal
from graphql_api.geracao import repository
from graphql_api.geracao.models import Geracao


async def obter_geracao(principal: Principal, geracao_id: str) -> Geracao:
    geracao = await repository.get_visible(principal, geracao_id)
    if geracao is None:
        raise ApiError("NOT_FOUND", description=f"Geração {geracao_id} não encontrada.")
    return geracao
