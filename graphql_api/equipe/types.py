from __future__ import annotations

import strawberry

from graphql_api.core.conversao import do_modelo
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
        return do_modelo(cls, i)


@strawberry.type(name="AcaoEquipe")
class AcaoType:
    membro_id: str
    acao: str
    alvo: str | None
    motivo: str | None
    em: Timestamp
