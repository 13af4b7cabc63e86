"""GraphQL types of the OAuth domain: integrators' apps."""

from __future__ import annotations

import strawberry

from graphql_api.core.scalars import Timestamp
from graphql_api.oauth.models import AppOAuth
from graphql_api.oauth.schemas import SituacaoApp, TipoApp


@strawberry.type(
    name="AppOAuth", description="An integrator's OAuth app (client). The secret itself is never shown again."
)
class AppOAuthType:
    id: strawberry.ID = strawberry.field(description="The client_id: app_ + 26 characters.")
    client_id: str
    integrador_id: str
    nome: str = strawberry.field(description="Shown to the seller on the consent screen.")
    ambiente: str
    tipo: TipoApp
    redirect_uris: list[str] = strawberry.field(description="Exact addresses, compared character by character.")
    escopos: list[str] = strawberry.field(description="The most the app may request.")
    situacao: SituacaoApp
    final_segredo: str | None = strawberry.field(
        description="The last characters of the current client_secret, to recognise it; null for public apps."
    )
    criado_em: Timestamp
    atualizado_em: Timestamp
    segredo_rotacionado_em: Timestamp | None
    desativado_em: Timestamp | None

    @classmethod
    def from_model(cls, a: AppOAuth) -> AppOAuthType:
        return cls(
            id=strawberry.ID(a.id),
            client_id=a.id,
            integrador_id=a.integrador_id,
            nome=a.nome,
            ambiente=a.ambiente,
            tipo=TipoApp(a.tipo),
            redirect_uris=list(a.redirect_uris),
            escopos=list(a.escopos),
            situacao=SituacaoApp(a.situacao),
            final_segredo=a.final_segredo,
            criado_em=a.criado_em,
            atualizado_em=a.atualizado_em,
            segredo_rotacionado_em=a.segredo_rotacionado_em,
            desativado_em=a.desativado_em,
        )


@strawberry.type(name="AppOAuthComSegredo")
class AppOAuthComSegredoType:
    app: AppOAuthType
    client_secret: str | None = strawberry.field(
        description="The whole client_secret (cs_test_/cs_live_): shown once, never stored. Null for public apps."
    )


@strawberry.type(name="EscopoOAuth", description="A scope an app may request, as the consent screen says it.")
class EscopoOAuthType:
    nome: str
    descricao: str
