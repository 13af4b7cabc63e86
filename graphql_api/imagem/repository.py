"""Queries of the images domain."""

from __future__ import annotations

from graphql_api.imagem.models import Imagem


async def by_file(produto_id: str | None, origem: str, arquivo: str) -> Imagem | None:
    """The image already registered for this stored file (its id survives a re-render)."""
    return await Imagem.get_or_none(produto_id=produto_id, origem=origem, arquivo=arquivo)


async def apagar_dados_de_teste(integrador_id: str) -> dict[str, int]:
    """The test environment's images (graphql_api/core/dados_de_teste.py)."""
    return {"imagens": await Imagem.filter(integrador_id=integrador_id, ambiente="teste").delete()}
