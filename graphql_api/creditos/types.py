from __future__ import annotations

import strawberry

from graphql_api.core.scalars import Timestamp
from graphql_api.creditos.models import Carteira


@strawberry.type(name="Saldo")
class SaldoType:
    modelo_cobranca: str
    ambiente: str
    creditos_disponiveis: int
    creditos_reservados: int
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, c: Carteira) -> SaldoType:
        return cls(
            modelo_cobranca=c.modelo_cobranca,
            ambiente=c.ambiente,
            creditos_disponiveis=c.creditos_disponiveis,
            creditos_reservados=c.creditos_reservados,
            atualizado_em=c.atualizado_em,
        )
