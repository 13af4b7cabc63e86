from __future__ import annotations

import strawberry

from graphql_api.chave.models import ChaveApi
from graphql_api.chave.service import display_id
from graphql_api.core.conversao import do_modelo
from graphql_api.core.errors import ApiError
from graphql_api.core.scalars import Timestamp


@strawberry.type(name="Chave")
class ChaveType:
    """An API key as listed: its public identifier (prefix + id), never the secret."""

    identificador: str
    nome: str
    ambiente: str
    ativa: bool
    criado_em: Timestamp
    revogada_em: Timestamp | None
    ultimo_uso_em: Timestamp | None = strawberry.field(
        description="The latest call made with the key (written at most once a minute: up to a minute late)."
    )

    @classmethod
    def from_model(cls, c: ChaveApi) -> ChaveType:
        return do_modelo(
            cls,
            c,
            identificador=display_id(c),
            ativa=c.revogada_em is None,
        )


@strawberry.type(name="ChaveCriada")
class ChaveCriadaType:
    chave: ChaveType
    token: str = strawberry.field(description="The whole key: shown once, never stored.")


@strawberry.type(
    name="BloqueioChaveProducao",
    description="What stops production credentials (sk_live_ keys, production OAuth apps): the error type and why.",
)
class BloqueioChaveType:
    tipo: str = strawberry.field(description="PRODUCTION_NOT_RELEASED, CONTRACT_NOT_ACCEPTED or FORBIDDEN (suspended).")
    mensagem: str

    @classmethod
    def of(cls, bloqueio: ApiError | None) -> BloqueioChaveType | None:
        if bloqueio is None:
            return None
        return cls(tipo=bloqueio.type, mensagem=bloqueio.description or bloqueio.kind.message)
