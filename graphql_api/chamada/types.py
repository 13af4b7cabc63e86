from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from graphql_api.chamada.models import Chamada
from graphql_api.chamada.service import AppDoRegistro, ErroRecente, body_as_json
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
        return cls(
            request_id=c.id,
            criado_em=c.criado_em,
            metodo=c.metodo,
            endpoint=c.endpoint,
            caminho=c.caminho,
            status=c.status,
            duracao_ms=c.duracao_ms,
            codigo_erro=c.codigo_erro,
            chave=c.chave_id,
            credencial=c.credencial,
            client_id=c.client_id,
            conta_id=c.conta_id,
            ambiente=c.ambiente,
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
        return cls(
            **vars(base),
            mensagem=c.mensagem_erro,
            causa=c.causa_erro or (kind.causa if kind else None),
            como_corrigir=kind.correcao if kind else None,
            documentacao=_doc_link(docs_url, c.codigo_erro),
            cabecalhos_enviados=JSON(c.cabecalhos) if c.cabecalhos is not None else None,
            cabecalhos_resposta=JSON(c.cabecalhos_resposta) if c.cabecalhos_resposta is not None else None,
            corpo_enviado=body_as_json(c.corpo_enviado),
            corpo_recebido=body_as_json(c.corpo_recebido),
            corpo_enviado_cortado=c.corpo_enviado_cortado,
            corpo_recebido_cortado=c.corpo_recebido_cortado,
            corpos_expurgados=c.corpo_enviado is None and c.corpo_recebido is None and c.metodo != "GET",
        )


@strawberry.type(name="AppDoRegistro", description="An OAuth app, as the call log's filter by app offers it.")
class AppDoRegistroType:
    client_id: str
    nome: str
    ativo: bool

    @classmethod
    def from_value(cls, app: AppDoRegistro) -> AppDoRegistroType:
        return cls(client_id=app.client_id, nome=app.nome, ativo=app.ativo)


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
        return cls(
            tipo=e.tipo,
            status=kind.status,
            total=e.total,
            ultima_ocorrencia=e.ultima_ocorrencia,
            ultimo_request_id=e.ultimo_request_id,
            mensagem=kind.message,
            causa=kind.causa,
            como_corrigir=kind.correcao,
            documentacao=_doc_url(docs_url, e.tipo),
        )
