from __future__ import annotations

from typing import Any

import strawberry

from graphql_api.core.scalars import Timestamp
from graphql_api.geracao.models import Geracao
from vitrine.infra.storage import MediaStorage


@strawberry.type(name="Progresso")
class ProgressoType:
    etapa: str
    percentual: int


@strawberry.type(name="ImagemResultado")
class ImagemResultadoType:
    id: strawberry.ID
    posicao: int
    url: str
    expira_em: Timestamp
    largura: int
    altura: int


@strawberry.type(name="VideoResultado")
class VideoResultadoType:
    url: str
    expira_em: Timestamp
    largura: int
    altura: int
    duracao_segundos: float
    formato: str


@strawberry.type(name="Fala")
class FalaType:
    texto: str
    voz: str
    duracao_segundos: float


@strawberry.type(name="Resultados")
class ResultadosType:
    imagens: list[ImagemResultadoType]
    video: VideoResultadoType | None
    fala: FalaType | None


@strawberry.type(name="Geracao")
class GeracaoType:
    id: strawberry.ID
    tipo: str
    situacao: str
    creditos_reservados: int
    ambiente: str
    conta_id: str | None
    produto_id: str | None
    progresso: ProgressoType
    resultados: ResultadosType
    criado_em: Timestamp
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, g: Geracao, storage: MediaStorage) -> GeracaoType:
        """Results get fresh signed links on every read."""
        return cls(
            id=strawberry.ID(g.id),
            tipo=g.tipo,
            situacao=g.situacao,
            creditos_reservados=g.creditos_reservados,
            ambiente=g.ambiente,
            conta_id=g.conta_id,
            produto_id=g.produto_id,
            progresso=ProgressoType(etapa=g.etapa, percentual=g.percentual),
            resultados=_resultados(g.resultados or {}, storage),
            criado_em=g.criado_em,
            atualizado_em=g.atualizado_em,
        )


def _resultados(data: dict[str, Any], storage: MediaStorage) -> ResultadosType:
    imagens = []
    for im in data.get("imagens", []):
        url, expira = storage.signed_url(im["arquivo"])
        imagens.append(
            ImagemResultadoType(
                id=strawberry.ID(im["id"]), posicao=im["posicao"], url=url, expira_em=expira,
                largura=im["largura"], altura=im["altura"],
            )
        )
    video = None
    if (v := data.get("video")) is not None:
        url, expira = storage.signed_url(v["arquivo"])
        video = VideoResultadoType(
            url=url, expira_em=expira, largura=v["largura"], altura=v["altura"],
            duracao_segundos=v["duracaoSegundos"], formato=v.get("formato", "mp4"),
        )
    fala = None
    if (f := data.get("fala")) is not None:
        fala = FalaType(texto=f["texto"], voz=f["voz"], duracao_segundos=f["duracaoSegundos"])
    return ResultadosType(imagens=imagens, video=video, fala=fala)
