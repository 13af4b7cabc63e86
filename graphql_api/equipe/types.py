from __future__ import annotations

import strawberry

from graphql_api.core.scalars import Timestamp


@strawberry.type(name="IntegradorEquipe")
class IntegradorType:
    id: str
    nome: str
    email: str
    situacao: str
    producao_situacao: str
    producao_motivo: str | None
    criado_em: Timestamp

    @classmethod
    def from_model(cls, i) -> IntegradorType:
        return cls(
            id=i.id,
            nome=i.nome,
            email=i.email,
            situacao=i.situacao,
            producao_situacao=i.producao_situacao,
            producao_motivo=i.producao_motivo,
            criado_em=i.criado_em,
        )


@strawberry.type(name="AcaoEquipe")
class AcaoType:
    membro_id: str
    acao: str
    alvo: str | None
    motivo: str | None
    em: Timestamp
