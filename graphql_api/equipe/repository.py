"""Queries of the staff domain."""

from __future__ import annotations

from graphql_api.equipe.models import AcaoEquipe


async def latest_acoes(limite: int) -> list[AcaoEquipe]:
    return await AcaoEquipe.all().order_by("-id").limit(limite)
