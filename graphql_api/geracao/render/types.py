"""Inputs and outputs of the renderers (plain dataclasses: no database, no HTTP)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from PIL import Image

from graphql_api.geracao.render.text import TextLayout

Ambiente = Literal["teste", "producao"]
AMBIENTES = ("teste", "producao")


class OutputError(RuntimeError):
    """One output (an image, a video format) could not be made."""


class RenderError(RuntimeError):
    """Nothing could be delivered; `falhas` says why, output by output."""

    def __init__(self, falhas: list[Falha]):
        super().__init__("; ".join(f"{f.saida}: {f.erro}" for f in falhas) or "nothing rendered")
        self.falhas = falhas

    def __reduce__(self):  # rebuilt from falhas when it comes back from a render process
        return type(self), (self.falhas,)


@dataclass(frozen=True, slots=True)
class Falha:
    """An output that failed while the others were delivered (a `parcial` generation)."""

    saida: str  # galeria-03-destaques, video-vertical
    erro: str


# What fails one output without stopping the others: unreadable or truncated photos, a full
# disk, ffmpeg refusing. Anything else is a bug and raises.
OUTPUT_ERRORS = (OSError, OutputError, Image.DecompressionBombError)


@dataclass(frozen=True, slots=True)
class FotoAprovada:
    """A product photo that passed screening, already on local disk."""

    path: Path
    ordem: int
    principal: bool = False
    largura: int = 0
    altura: int = 0


def ordered_fotos(fotos: list[FotoAprovada]) -> list[FotoAprovada]:
    """The principal photo first (the flagged one, else the lowest ordem), then by ordem."""
    by_ordem = sorted(fotos, key=lambda f: f.ordem)
    principal = next((f for f in by_ordem if f.principal), by_ordem[0] if by_ordem else None)
    return [principal] + [f for f in by_ordem if f is not principal] if principal else []


def check_ambiente(ambiente: str) -> None:
    if ambiente not in AMBIENTES:
        raise ValueError(f"ambiente must be one of {AMBIENTES}, not {ambiente!r}")


@dataclass(slots=True)
class RenderedImage:
    """One delivered image. `layouts` are the text boxes drawn on it (for checks, not the API)."""

    posicao: int
    kind: str
    path: Path
    largura: int
    altura: int
    foto_ordem: int | None = None  # the photo shown, when the image shows one
    layouts: list[TextLayout] = field(default_factory=list, repr=False)
    notes: list[str] = field(default_factory=list)  # what an edit could not do, in Portuguese
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"posicao": self.posicao, "tipo": self.kind, "largura": self.largura, "altura": self.altura}


@dataclass(slots=True)
class GalleryResult:
    ambiente: str
    imagens: list[RenderedImage]  # delivered, in posicao order
    falhas: list[Falha] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Fala:
    """The narration: `resultados.fala` of a video."""

    texto: str
    voz: str
    duracao_segundos: float

    def as_dict(self) -> dict:
        return {"texto": self.texto, "voz": self.voz, "duracaoSegundos": self.duracao_segundos}


@dataclass(frozen=True, slots=True)
class VideoFile:
    formato: Literal["horizontal", "vertical"]
    path: Path
    largura: int
    altura: int
    duracao_segundos: float
    fps: int

    def as_dict(self) -> dict:
        return {
            "formato": self.formato,
            "largura": self.largura,
            "altura": self.altura,
            "duracaoSegundos": self.duracao_segundos,
            "fps": self.fps,
        }


@dataclass(slots=True)
class VideoResult:
    tipo: str  # apresentacao | cinepremium
    avatar: str  # the style actually used (automatico resolves to one of the others)
    ambiente: str
    videos: list[VideoFile]  # the horizontal one first
    fala: Fala
    legenda: Path  # WebVTT, always shipped
    legendas_embutidas: bool  # captions also burned into the picture
    cenas: list[str] = field(default_factory=list)  # scene kinds, in order
    falhas: list[Falha] = field(default_factory=list)  # formats that failed (the others delivered)
    seconds: float = 0.0
