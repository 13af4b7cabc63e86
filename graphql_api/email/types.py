from __future__ import annotations

import strawberry

from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.email.models import Email


@strawberry.type(name="Email")
class EmailType:
    id: strawberry.ID
    para: str
    assunto: str
    tipo: str
    situacao: str  # na_caixa (no SMTP) | pendente | enviado | falhou
    tentativas: int
    erro: str | None
    criado_em: Timestamp
    enviado_em: Timestamp | None

    @classmethod
    def from_model(cls, e: Email) -> EmailType:
        return do_modelo(cls, e)


@strawberry.type(name="EmailDetalhe")
class EmailDetalheType(EmailType):
    texto: str | None = strawberry.field(description="Null when hidden: see `oculto`.")
    oculto: str | None = strawberry.field(
        description="Why the text is hidden: `papel` (only owners see password links) or "
        "`reautenticar` (type the password again)."
    )
