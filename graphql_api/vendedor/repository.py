from datetime import datetime

from graphql_api.vendedor.models import Vendedor

# What a seller's page needs of its session, read with it in one query.
SESSION_FIELDS = ("vendedor_id", "vendedor__nome", "vendedor__email")


async def by_email(email: str) -> Vendedor | None:
    return await Vendedor.get_or_none(email=email)


async def by_id(vendedor_id: str) -> Vendedor | None:
    return await Vendedor.get_or_none(id=vendedor_id)


async def touch(vendedor_id: str, when: datetime) -> None:
    await Vendedor.filter(id=vendedor_id).update(ultimo_acesso_em=when)
