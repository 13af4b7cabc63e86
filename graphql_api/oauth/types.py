from __future__ import annotations

import strawberry

from graphql_api.core.scalars import Timestamp
from graphql_api.oauth import escopos as catalogo_escopos
from graphql_api.oauth.autorizacoes import AppConectado, Avaliacao


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
            )
        return cls(
            redirecionar_para=None,
            client_id=pedido.app.id,
            app_nome=pedido.app.nome,
            integrador_nome=pedido.integrador_nome,
            ambiente=pedido.app.ambiente,
            escopos=[EscopoType.of(e) for e in pedido.escopos],
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
