from __future__ import annotations

from typing import TYPE_CHECKING

import strawberry

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
        return cls(codigo=p.codigo, nome=p.nome, creditos=p.creditos, preco_centavos=p.preco_centavos)


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
        return cls(
            id=strawberry.ID(r.id),
            pacote=r.pacote_id,
            situacao=r.situacao,
            creditos=r.creditos,
            preco_centavos=r.preco_centavos,
            ambiente=r.ambiente,
            link_pagamento=link_pagamento(r, settings),
            expira_em=r.expira_em,
            paga_em=r.paga_em,
            encerrada_em=r.encerrada_em,
            criado_em=r.criado_em,
            atualizado_em=r.atualizado_em,
        )
