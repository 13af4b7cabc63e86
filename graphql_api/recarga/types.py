from __future__ import annotations

from typing import TYPE_CHECKING

import strawberry

from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.recarga.models import Pacote, Recarga
from graphql_api.recarga.service import link_pagamento

if TYPE_CHECKING:
    from graphql_api.core.recursos import Configuracao


@strawberry.type(name="Pacote")
class PacoteType:
    codigo: str
    nome: str
    creditos: int
    preco_centavos: int

    @classmethod
    def from_model(cls, p: Pacote) -> PacoteType:
        return do_modelo(cls, p)


@strawberry.type(name="Recarga")
class RecargaType:
    id: strawberry.ID
    pacote: str
    situacao: str
    creditos: int
    preco_centavos: int
    ambiente: str
    link_pagamento: str
    expira_em: Timestamp
    paga_em: Timestamp | None
    encerrada_em: Timestamp | None  # recusada or expirada
    criado_em: Timestamp
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, r: Recarga, settings: Configuracao) -> RecargaType:
        return do_modelo(
            cls,
            r,
            pacote=r.pacote_id,
            link_pagamento=link_pagamento(r, settings),
        )
