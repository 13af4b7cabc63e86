from __future__ import annotations

import strawberry

from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.usuario.models import Usuario


@strawberry.type(name="Usuario")
class UsuarioType:
    """A person of the integrator. `pendente` until an invited person chooses a password."""

    id: strawberry.ID
    nome: str
    email: str
    papel: str
    pendente: bool
    criado_em: Timestamp
    ultimo_acesso_em: Timestamp | None

    @classmethod
    def from_model(cls, u: Usuario) -> UsuarioType:
        return do_modelo(
            cls,
            u,
            pendente=u.hash_senha is None,
        )


@strawberry.type(name="LinkSenha")
class LinkSenhaType:
    """A valid password link: what the page that uses it shows."""

    motivo: str  # redefinicao | convite
    nome: str
    email: str
    expira_em: Timestamp
