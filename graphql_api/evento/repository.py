"""Queries of the events domain."""

from __future__ import annotations

from graphql_api.evento.models import Evento


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """The test environment's events (graphql_api/core/dados_de_teste.py)."""
    return {"eventos": await Evento.filter(integrador_id=integrador_id, ambiente="teste").delete()}
