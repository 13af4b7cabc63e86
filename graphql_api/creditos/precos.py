"""The price table, in credits (served at GET /v1/precos and in docs/creditos.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Preco:
    tipo: str
    creditos: int
    unidade: str  # what one price unit is
    descricao: str


PRECOS: dict[str, Preco] = {
    p.tipo: p
    for p in (
        Preco("galeria", 2, "imagem", "Cada imagem entregue de uma galeria."),
        Preco("video_apresentacao", 20, "formato", "Vídeo de apresentação com fala, horizontal (um formato)."),
        Preco(
            "video_cinepremium",
            30,
            "formato",
            "Vídeo CinePremium: 1080p, mais longo, movimento mais suave; "
            "dois formatos (horizontal e vertical), 60 créditos os dois.",
        ),
        Preco("edicao_imagem", 1, "imagem", "Cada imagem editada."),
    )
}


def custo(tipo: str, unidades: int) -> int:
    return PRECOS[tipo].creditos * unidades
