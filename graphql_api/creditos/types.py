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


@strawberry.type(name="Lancamento")
class LancamentoType:
    id: strawberry.ID
    tipo: str
    creditos_disponiveis: int
    creditos_reservados: int
    geracao_id: str | None
    descricao: str
    criado_em: Timestamp

    @classmethod
    def from_model(cls, lan) -> LancamentoType:
        return cls(
            id=strawberry.ID(lan.id),
            tipo=lan.tipo,
            creditos_disponiveis=lan.disponiveis,
            creditos_reservados=lan.reservados,
            geracao_id=lan.geracao_id,
            descricao=lan.descricao,
            criado_em=lan.criado_em,
        )


@strawberry.type(name="Preco")
class PrecoType:
    tipo: str
    creditos: int
    unidade: str
    descricao: str
