"""What a signed-in seller reads of themself."""

from __future__ import annotations

from graphql_api.core.errors import ApiError
from graphql_api.core.principal import Principal
from graphql_api.vendedor import repository
from graphql_api.vendedor.models import Vendedor


async def atual(principal: Principal) -> Vendedor:
    """The seller of a VENDEDOR principal (reached only through permissions.vendedor_only)."""
    vendedor = await repository.by_id(principal.ator_exigido)
    if vendedor is None:  # a session outliving its seller: sign in again
        raise ApiError("UNAUTHORIZED")
    return vendedor
