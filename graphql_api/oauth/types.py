"""GraphQL types of the OAuth domain: integrators' apps, authorisation requests, connected apps."""

from __future__ import annotations

import strawberry

from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.oauth import escopos as catalogo_escopos
from graphql_api.oauth.apps import segredo_anterior_vale
from graphql_api.oauth.autorizacoes import AppConectado, Avaliacao
from graphql_api.oauth.models import AppOAuth
from graphql_api.oauth.retornos import TipoDestino
from graphql_api.oauth.schemas import SituacaoApp, TipoApp


@strawberry.type(name="EscopoOAuth", description="A permission an app asks, as the seller reads it.")
class EscopoType:
    codigo: str
    descricao: str

    @classmethod
    def of(cls, codigo: str) -> EscopoType:
        return cls(codigo=codigo, descricao=catalogo_escopos.DESCRICOES[codigo])


@strawberry.type(
    name="AvaliacaoPedidoAutorizacao",
    description="A checked /oauth/autorizar request: what the consent screen shows, or, when "
    "the request is wrong for the app, where to send the browser back with the error.",
)
class AvaliacaoType:
    redirecionar_para: str | None
    client_id: str | None
    app_nome: str | None
    integrador_nome: str | None
    ambiente: str | None
    escopos: list[EscopoType]
    destino: str | None = strawberry.field(
        description="Where the code goes, shown to the seller: the redirect URI's host[:port], or a "
        "native app's own scheme."
    )
    destino_tipo: TipoDestino | None

    @classmethod
    def of(cls, avaliacao: Avaliacao) -> AvaliacaoType:
        pedido = avaliacao.pedido
        if pedido is None:
            return cls(
                redirecionar_para=avaliacao.redirecionar_para,
                client_id=None,
                app_nome=None,
                integrador_nome=None,
                ambiente=None,
                escopos=[],
                destino=None,
                destino_tipo=None,
            )
        destino = pedido.destino
        return cls(
            redirecionar_para=None,
            client_id=pedido.app.id,
            app_nome=pedido.app.nome,
            integrador_nome=pedido.integrador_nome,
            ambiente=pedido.app.ambiente,
            escopos=[EscopoType.of(e) for e in pedido.escopos],
            destino=destino.endereco,
            destino_tipo=destino.tipo,
        )


@strawberry.type(name="AppConectado", description="An app the signed-in seller authorised and has not revoked.")
class AppConectadoType:
    app_id: strawberry.ID
    app_nome: str
    integrador_nome: str
    ambiente: str
    conta_id: str
    escopos: list[EscopoType]
    autorizado_em: Timestamp

    @classmethod
    def of(cls, app: AppConectado) -> AppConectadoType:
        return cls(
            app_id=strawberry.ID(app.app_id),
            app_nome=app.app_nome,
            integrador_nome=app.integrador_nome,
            ambiente=app.ambiente,
            conta_id=app.conta_id,
            escopos=[EscopoType.of(e) for e in app.escopos],
            autorizado_em=app.autorizado_em,  # type: ignore[arg-type]
        )


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
    final_segredo_anterior: str | None = strawberry.field(
        description="The last characters of the previous client_secret while it still works (an overlap "
        "window chosen at the rotation); null otherwise."
    )
    segredo_anterior_expira_em: Timestamp | None = strawberry.field(
        description="When the previous client_secret stops working by itself; null when only one works."
    )
    criado_em: Timestamp
    atualizado_em: Timestamp
    segredo_rotacionado_em: Timestamp | None
    desativado_em: Timestamp | None

    @classmethod
    def from_model(cls, a: AppOAuth) -> AppOAuthType:
        return do_modelo(
            cls,
            a,
            client_id=a.id,
            tipo=TipoApp(a.tipo),
            redirect_uris=list(a.redirect_uris),
            escopos=list(a.escopos),
            situacao=SituacaoApp(a.situacao),
            final_segredo_anterior=a.final_segredo_anterior if segredo_anterior_vale(a) else None,
            segredo_anterior_expira_em=a.segredo_anterior_expira_em if segredo_anterior_vale(a) else None,
        )


@strawberry.type(name="AppOAuthComSegredo")
class AppOAuthComSegredoType:
    app: AppOAuthType
    client_secret: str | None = strawberry.field(
        description="The whole client_secret (cs_test_/cs_live_): shown once, never stored. Null for public apps."
    )
