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
    creditos_plano: int = strawberry.field(
        description="Disponíveis do plano: concedidos no início do ciclo, expiram no fim dele; gastos primeiro."
    )
    creditos_pacote: int = strawberry.field(
        description="Disponíveis de pacotes avulsos (e créditos de teste): não expiram."
    )
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, c: Carteira) -> SaldoType:
        return cls(
            modelo_cobranca=c.modelo_cobranca,
            ambiente=c.ambiente,
            creditos_disponiveis=c.creditos_disponiveis,
            creditos_reservados=c.creditos_reservados,
            creditos_plano=c.creditos_plano,
            creditos_pacote=c.creditos_pacote,
            atualizado_em=c.atualizado_em,
        )


@strawberry.type(name="Lancamento")
class LancamentoType:
    id: strawberry.ID
    tipo: str
    creditos_disponiveis: int = strawberry.field(description="Efeito nos créditos disponíveis (com sinal).")
    creditos_reservados: int = strawberry.field(description="Efeito nos créditos reservados (com sinal).")
    creditos_plano: int = strawberry.field(description="Parte de creditosDisponiveis que é do plano.")
    creditos_pacote: int = strawberry.field(description="Parte de creditosDisponiveis que é de pacotes.")
    disponiveis_apos: int | None = strawberry.field(
        description="Créditos disponíveis logo depois deste movimento (nulo em movimentos antigos)."
    )
    geracao_id: str | None
    recarga_id: str | None
    descricao: str
    criado_em: Timestamp

    @classmethod
    def from_model(cls, lan) -> LancamentoType:
        return cls(
            id=strawberry.ID(lan.id),
            tipo=lan.tipo,
            creditos_disponiveis=lan.disponiveis,
            creditos_reservados=lan.reservados,
            creditos_plano=lan.plano,
            creditos_pacote=lan.pacote,
            disponiveis_apos=lan.disponiveis_apos,
            geracao_id=lan.geracao_id,
            recarga_id=lan.recarga_id,
            descricao=lan.descricao,
            criado_em=lan.criado_em,
        )


@strawberry.type(name="Preco")
class PrecoType:
    tipo: str
    creditos: int
    unidade: str
    descricao: str
