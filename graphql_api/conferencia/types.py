from __future__ import annotations

from typing import Any

import strawberry

from graphql_api.conferencia.models import Conferencia
from graphql_api.conferencia.service import consultar_novamente_em
from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp


@strawberry.type(name="Pendencia", description="Something the ficha lacks for a media type; codes at /docs/pendencias.")
class PendenciaType:
    codigo: str
    severidade: str  # bloqueio | fraco
    campo: str


@strawberry.type(name="ResultadoConferencia")
class ResultadoType:
    tipo: str  # galeria | video_apresentacao | video_cinepremium
    aprovado: bool
    quantidade_maxima_imagens: int | None  # galeria only
    quantidades_aprovadas: list[int] | None  # galeria only
    nota_video: int | None  # video types only
    pendencias: list[PendenciaType]

    @classmethod
    def from_value(cls, r: dict[str, Any]) -> ResultadoType:
        return cls(
            tipo=r["tipo"],
            aprovado=r["aprovado"],
            quantidade_maxima_imagens=r["quantidadeMaximaImagens"],
            quantidades_aprovadas=r["quantidadesAprovadas"],
            nota_video=r["notaVideo"],
            pendencias=[
                PendenciaType(codigo=p["codigo"], severidade=p["severidade"], campo=p["campo"]) for p in r["pendencias"]
            ],
        )


@strawberry.type(name="Conferencia")
class ConferenciaType:
    id: strawberry.ID
    produto_id: str
    conta_id: str
    versao_produto: int
    situacao: str  # agendada | em_andamento | concluida; falhou only through the conferencia query
    resultados: list[ResultadoType]
    consultar_novamente_em: Timestamp | None  # while not concluida: when to ask again
    criado_em: Timestamp
    concluida_em: Timestamp | None

    @classmethod
    def from_model(cls, c: Conferencia) -> ConferenciaType:
        return do_modelo(
            cls,
            c,
            resultados=[ResultadoType.from_value(r) for r in c.resultados or []],
            consultar_novamente_em=consultar_novamente_em(c),
        )
