from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from graphql_api.chamada.models import Chamada
from graphql_api.chamada.service import AppDoRegistro, ErroRecente, body_as_json
from graphql_api.core.conversao import do_modelo
from graphql_api.core.errors import CATALOG
from graphql_api.core.scalars import Timestamp


def _doc_url(docs_url: str, tipo: str) -> str:
    return f"{docs_url}/erros#{tipo}"


def _doc_link(docs_url: str, tipo: str | None) -> str | None:
    return _doc_url(docs_url, tipo) if tipo else None


@strawberry.type(name="Chamada")
class ChamadaType:
    """A call-log entry as listed (no bodies)."""

    request_id: str
    criado_em: Timestamp
    metodo: str
    endpoint: str
    caminho: str
    status: int
    duracao_ms: float
    codigo_erro: str | None
    chave: str | None
    credencial: str = strawberry.field(description="How the call authenticated: api_key or oauth.")
    client_id: str | None = strawberry.field(description="The OAuth app (app_…) of a call made with an oat_ token.")
    conta_id: str | None
    ambiente: str
    idempotente_repetida: bool

    @classmethod
    def from_model(cls, c: Chamada) -> ChamadaType:
        return do_modelo(
            cls,
            c,
            request_id=c.id,
            chave=c.chave_id,
            idempotente_repetida=c.replay,
        )


@strawberry.type(name="ChamadaDetalhe")
class ChamadaDetalheType(ChamadaType):
    mensagem: str | None
    causa: str | None
    como_corrigir: str | None
    documentacao: str | None
    cabecalhos_enviados: JSON | None
    cabecalhos_resposta: JSON | None = strawberry.field(
        description="Response headers worth debugging with: X-RateLimit-*, Retry-After, Idempotent-Replayed, Location."
    )
    corpo_enviado: JSON | None
    corpo_recebido: JSON | None
    corpo_enviado_cortado: bool
    corpo_recebido_cortado: bool
    corpos_expurgados: bool

    @classmethod
    def from_detail(cls, c: Chamada, docs_url: str) -> ChamadaDetalheType:
        kind = CATALOG.get(c.codigo_erro) if c.codigo_erro else None
        base = ChamadaType.from_model(c)
        return do_modelo(
            cls,
            c,
            **vars(base),
            mensagem=c.mensagem_erro,
            causa=c.causa_erro or (kind.causa if kind else None),
            como_corrigir=kind.correcao if kind else None,
            documentacao=_doc_link(docs_url, c.codigo_erro),
            cabecalhos_enviados=JSON(c.cabecalhos) if c.cabecalhos is not None else None,
            cabecalhos_resposta=JSON(c.cabecalhos_resposta) if c.cabecalhos_resposta is not None else None,
            corpo_enviado=body_as_json(c.corpo_enviado),
            corpo_recebido=body_as_json(c.corpo_recebido),
            corpos_expurgados=c.corpo_enviado is None and c.corpo_recebido is None and c.metodo != "GET",
        )


@strawberry.type(name="AppDoRegistro", description="An OAuth app, as the call log's filter by app offers it.")
class AppDoRegistroType:
    client_id: str
    nome: str
    ativo: bool

    @classmethod
    def from_value(cls, app: AppDoRegistro) -> AppDoRegistroType:
        return do_modelo(cls, app)


@strawberry.type(name="ErroRecente")
class ErroRecenteType:
    tipo: str
    status: int
    total: int
    ultima_ocorrencia: Timestamp
    ultimo_request_id: str
    mensagem: str
    causa: str
    como_corrigir: str
    documentacao: str

    @classmethod
    def from_value(cls, e: ErroRecente, docs_url: str) -> ErroRecenteType:
        kind = CATALOG[e.tipo]
        return do_modelo(
            cls,
            e,
            status=kind.status,
            mensagem=kind.message,
            causa=kind.causa,
            como_corrigir=kind.correcao,
            documentacao=_doc_url(docs_url, e.tipo),
        )
