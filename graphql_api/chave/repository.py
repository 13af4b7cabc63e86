from datetime import datetime

from tortoise.expressions import Q

from graphql_api.chave import situacao
from graphql_api.chave.models import ChaveApi
from graphql_api.core.relogio import agora


async def credential_row(identificador: str) -> dict | None:
    """The key and its integrator's status and limits, in one query (the hot path of every call)."""
    rows = await ChaveApi.filter(id=identificador).values(
        "hash_segredo",
        "ambiente",
        "revogada_em",
        "integrador_id",
        *(f"integrador__{coluna}" for coluna in situacao.COLUNAS),
    )
    return rows[0] if rows else None


async def exists(identificador: str) -> bool:
    return await ChaveApi.filter(id=identificador).exists()


async def list_for(integrador_id: str | None, ambiente: str) -> list[ChaveApi]:
    # None, a caller of no integrator, matches no row (every key belongs to an integrator)
    return await ChaveApi.filter(integrador_id=integrador_id, ambiente=ambiente).order_by("-criado_em")


async def revoke(integrador_id: str, identificador: str) -> int:
    return await ChaveApi.filter(id=identificador, integrador_id=integrador_id, revogada_em__isnull=True).update(
        revogada_em=agora()
    )


async def touch(identificador: str, when: datetime) -> int:
    """Move the key's last use forward to `when` (never back: batches may arrive out of order)."""
    return (
        await ChaveApi.filter(id=identificador)
        .filter(Q(ultimo_uso_em__isnull=True) | Q(ultimo_uso_em__lt=when))
        .update(ultimo_uso_em=when)
    )
