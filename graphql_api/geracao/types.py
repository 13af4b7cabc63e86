from __future__ import annotations

from typing import Any

import strawberry

from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.geracao.models import Geracao
from vitrine.infra.storage import Storage


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
    tipo: str  # what the image shows: principal, angulo, medidas, conteudo, ... (docs/midia.md)
    observacoes: list[str]  # what the image could not do as well as it should (for the seller)


@strawberry.type(name="VideoResultado")
class VideoResultadoType:
    url: str
    expira_em: Timestamp
    formato: str  # horizontal | vertical
    largura: int
    altura: int
    duracao_segundos: float
    fps: int


@strawberry.type(name="Legendas")
class LegendasType:
    url: str
    expira_em: Timestamp
    idioma: str
    embutidas: bool  # also burned into the picture


@strawberry.type(name="Fala")
class FalaType:
    texto: str
    voz: str
    duracao_segundos: float


@strawberry.type(name="Resultados")
class ResultadosType:
    imagens: list[ImagemResultadoType]
    video: VideoResultadoType | None  # the main (horizontal) video
    videos: list[VideoResultadoType]  # every format delivered
    fala: FalaType | None
    legendas: LegendasType | None
    avatar: str | None


@strawberry.type(name="FalhaSaida")
class FalhaType:
    saida: str
    erro: str


@strawberry.type(name="ErroGeracao")
class ErroType:
    codigo: str
    mensagem: str
    falhas: list[FalhaType]


@strawberry.type(name="Geracao")
class GeracaoType:
    id: strawberry.ID
    tipo: str
    situacao: str
    creditos_reservados: int
    creditos_cobrados: int
    ambiente: str
    conta_id: str | None
    produto_id: str | None
    progresso: ProgressoType
    resultados: ResultadosType
    erro: ErroType | None
    criado_em: Timestamp
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, g: Geracao, storage: Storage) -> GeracaoType:
        """Results get fresh signed links on every read."""
        return do_modelo(
            cls,
            g,
            progresso=ProgressoType(etapa=g.etapa, percentual=g.percentual),
            resultados=_resultados(g.resultados or {}, storage),
            erro=_erro(g.erro),
        )


def _erro(data: dict | None) -> ErroType | None:
    if not data:
        return None
    return ErroType(
        codigo=data["codigo"],
        mensagem=data["mensagem"],
        falhas=[FalhaType(saida=f["saida"], erro=f["erro"]) for f in data.get("falhas", [])],
    )


def _video(v: dict[str, Any], storage: Storage) -> VideoResultadoType:
    url, expira = storage.signed_url(v["arquivo"])
    return VideoResultadoType(
        url=url,
        expira_em=expira,
        formato=v.get("formato", "horizontal"),
        largura=v["largura"],
        altura=v["altura"],
        duracao_segundos=v["duracaoSegundos"],
        fps=v.get("fps", 30),
    )


def _resultados(data: dict[str, Any], storage: Storage) -> ResultadosType:
    imagens = []
    for im in data.get("imagens", []):
        url, expira = storage.signed_url(im["arquivo"])
        imagens.append(
            ImagemResultadoType(
                id=strawberry.ID(im["id"]),
                posicao=im["posicao"],
                url=url,
                expira_em=expira,
                largura=im["largura"],
                altura=im["altura"],
                tipo=im.get("tipo", "imagem"),
                observacoes=im.get("observacoes", []),
            )
        )
    videos = [_video(v, storage) for v in data.get("videos", [])]
    legendas = None
    if (leg := data.get("legendas")) is not None:
        url, expira = storage.signed_url(leg["arquivo"])
        legendas = LegendasType(url=url, expira_em=expira, idioma=leg["idioma"], embutidas=leg["embutidas"])
    fala = None
    if (f := data.get("fala")) is not None:
        fala = FalaType(texto=f["texto"], voz=f["voz"], duracao_segundos=f["duracaoSegundos"])
    return ResultadosType(
        imagens=imagens,
        video=videos[0] if videos else None,
        videos=videos,
        fala=fala,
        legendas=legendas,
        avatar=data.get("avatar"),
    )
