from __future__ import annotations

import strawberry

from graphql_api.conta.models import Conta
from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp


@strawberry.type(name="Conta")
class ContaType:
    id: strawberry.ID
    codigo_externo: str
    nome: str
    origem: str
    situacao: str
    ambiente: str
    criado_em: Timestamp
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, c: Conta) -> ContaType:
        return do_modelo(cls, c)
