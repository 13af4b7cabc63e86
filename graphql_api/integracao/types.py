from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.integracao.etapas import ETAPAS
from graphql_api.integracao.models import AceiteContrato, ContratoVersao
from graphql_api.integracao.service import StatusIntegracao


@strawberry.type(name="EtapaIntegracao")
class EtapaType:
    codigo: str
    titulo: str
    situacao: str
    verificado_em: Timestamp | None
    evidencia: JSON | None
    ultima_falha: str | None
    como_concluir: str
    documentacao: str


@strawberry.type(name="Producao")
class ProducaoType:
    situacao: str
    liberacao: str | None
    motivo: str
    liberada_em: Timestamp | None


@strawberry.type(name="AlertaAberto")
class AlertaType:
    id: str
    tipo: str
    mensagem: str
    aberto_em: Timestamp
    evidencia: JSON | None


@strawberry.type(name="IntegracaoStatus")
class StatusType:
    ambiente: str
    etapas_concluidas: int
    etapas_obrigatorias: int
    producao: ProducaoType
    etapas: list[EtapaType]
    alertas_abertos: list[AlertaType]

    @classmethod
    def from_status(cls, s: StatusIntegracao, docs_url: str) -> StatusType:
        return do_modelo(
            cls,
            s,
            etapas_concluidas=s.concluidas,
            etapas_obrigatorias=len(ETAPAS),
            producao=ProducaoType(
                situacao=s.producao_situacao,
                liberacao=s.producao_liberacao,
                motivo=s.producao_motivo,
                liberada_em=s.producao_liberada_em,
            ),
            etapas=[
                EtapaType(
                    codigo=e.codigo,
                    titulo=e.titulo,
                    situacao=e.situacao,
                    verificado_em=e.verificado_em,
                    evidencia=JSON(e.evidencia) if e.evidencia is not None else None,
                    ultima_falha=e.ultima_falha,
                    como_concluir=e.como_concluir,
                    documentacao=f"{docs_url}/integracao#{e.codigo}",
                )
                for e in s.etapas
            ],
            alertas_abertos=[
                AlertaType(id=a.id, tipo=a.tipo, mensagem=a.mensagem, aberto_em=a.aberto_em, evidencia=a.evidencia)
                for a in s.alertas
            ],
        )


@strawberry.type(name="ContratoVersao")
class ContratoType:
    versao: int
    titulo: str
    texto: str = strawberry.field(description="Markdown.")
    publicado_em: Timestamp
    publicado_por: str

    @classmethod
    def from_model(cls, v: ContratoVersao) -> ContratoType:
        return do_modelo(cls, v)


@strawberry.type(name="AceiteContrato", description="Who accepted a contract version for the integrator, and when.")
class AceiteContratoType:
    versao: int
    aceito_por: str
    aceito_em: Timestamp

    @classmethod
    def from_model(cls, a: AceiteContrato) -> AceiteContratoType:
        return do_modelo(cls, a)


@strawberry.type(name="LimpezaTeste", description="What clearing the test environment deleted, by kind.")
class LimpezaTesteType:
    contas: int
    produtos: int
    conferencias: int
    geracoes: int
    imagens: int
    chamadas: int
    entregas: int
    eventos: int

    @classmethod
    def of(cls, apagados: dict[str, int]) -> LimpezaTesteType:
        return cls(**{name: apagados.get(name, 0) for name in cls.__annotations__})
