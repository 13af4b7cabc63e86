from __future__ import annotations

import strawberry

from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.vendedor.models import Vendedor


@strawberry.type(name="Vendedor")
class VendedorType:
    """A seller, as the seller sees themself. Integrators never read a seller's e-mail: they see the
    linked account, named after the store."""

    id: strawberry.ID
    nome: str  # the store's name
    email: str
    criado_em: Timestamp

    @classmethod
    def from_model(cls, v: Vendedor) -> VendedorType:
        return do_modelo(cls, v)
