"""Image edits: `apply_edits` renders an edit request (validated by
graphql_api.geracao.schemas.parse_edicao) on one source image."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageEnhance, ImageOps

from graphql_api.geracao.render import observacoes, style
from graphql_api.geracao.render import photo as photos
from graphql_api.geracao.render.text import Box, Canvas
from graphql_api.geracao.render.types import RenderedImage, check_ambiente
from graphql_api.geracao.render.watermark import apply_watermark

if TYPE_CHECKING:  # the request models are the input's (they import this package's sizes)
    from graphql_api.geracao.schemas import Ajuste, EdicaoRequest, Enquadrar, FundoBranco, Selo, Texto

MAX_SOURCE_SIDE = 2400  # larger sources are scaled down first: no marketplace takes more
TESTE_SCALE = 0.5

FORMATS: dict[str, tuple[int, int]] = {
    "quadrado_1200": (1200, 1200),  # Mercado Livre, Magalu, Shopee listing images
    "quadrado_1000": (1000, 1000),  # Amazon's size for zoom
    "retrato_1080x1350": (1080, 1350),  # 4:5 feed posts
    "vertical_1080x1920": (1080, 1920),  # stories, vertical video covers
    "paisagem_1200x628": (1200, 628),  # link previews and ads
}

# -- operations ---------------------------------------------------------------------------------------


def _hex(value: str) -> tuple[int, int, int]:
    r, g, b = (int(value[i : i + 2], 16) for i in (1, 3, 5))
    return r, g, b


def _fundo_branco(img: Image.Image, op: FundoBranco, notes: list[str], scale: float) -> Image.Image:
    """The product through its mask onto pure white; the image as it was when the product cannot
    be told apart from its background."""
    recorte, mask = photos.cut_out(img)
    if mask is None:
        notes.append(f"fundo_branco: {observacoes.fundo_mantido(recorte.mascara is not None, recorte.causa)}")
        return img
    return photos.on_white(img, mask)


def _enquadrar(img: Image.Image, op: Enquadrar, notes: list[str], scale: float) -> Image.Image:
    width, height = FORMATS[op.formato]
    size = (round(width * scale), round(height * scale))
    if op.modo == "preencher":
        return ImageOps.fit(img, size, Image.Resampling.LANCZOS)
    mask = None
    if op.modo == "produto":
        recorte, mask = photos.cut_out(img)
        if mask is None:
            notes.append(f"enquadrar: {observacoes.fundo_mantido(recorte.mascara is not None, recorte.causa)}")
    canvas = Image.new("RGB", size, style.WHITE)
    margin = round(min(size) * op.margem / 100)
    # The product cut out through its mask and framed by its own box; otherwise the whole image.
    photos.paste_contained(canvas, photos.in_memory(img, mask), Box(0, 0, *size).inset(margin))
    return canvas


def _ajuste(img: Image.Image, op: Ajuste, notes: list[str], scale: float) -> Image.Image:
    for enhancer, amount in (
        (ImageEnhance.Brightness, op.brilho),
        (ImageEnhance.Contrast, op.contraste),
        (ImageEnhance.Color, op.saturacao),
    ):
        if amount:
            img = enhancer(img).enhance(1 + amount / 100)
    return img


def _texto(img: Image.Image, op: Texto, canvas: Canvas) -> None:
    width, height = img.size
    band_height = max(24, round(min(width, height) * 0.14))
    top = 0 if op.posicao == "topo" else height - band_height
    band = Box(0, top, width, top + band_height)
    canvas.draw.rectangle(band.as_tuple(), fill=_hex(op.fundo))
    canvas.text(
        op.texto,
        band.inset(canvas.px(40), canvas.px(12)),
        fill=_hex(op.cor),
        size=(64, 18),
        bold=True,
        max_lines=2,
        align="center",
        valign="middle",
    )


def _selo(img: Image.Image, op: Selo, canvas: Canvas) -> None:
    width, height = img.size
    diameter = round(min(width, height) * 0.24)
    margin = round(min(width, height) * 0.04)
    x = margin if op.posicao.endswith("esquerdo") else width - margin - diameter
    y = margin if op.posicao.startswith("superior") else height - margin - diameter
    disc = Box(x, y, x + diameter, y + diameter)
    canvas.draw.ellipse(disc.as_tuple(), fill=_hex(op.cor))
    # The text box is the square inscribed in the disc, so no glyph touches its edge.
    inner = disc.inset(diameter * (1 - 0.7071) / 2 + canvas.px(6))
    canvas.text(
        op.texto, inner, fill=_hex(op.corTexto), size=(90, 14), bold=True, max_lines=3, align="center", valign="middle"
    )


def apply_edits(source: Path, pedido: EdicaoRequest, ambiente: str, out_path: Path) -> RenderedImage:
    """Apply the operations in order and write a JPEG. In teste the same operations run at half
    size (source and target formats alike) and the result carries the AMOSTRA watermark."""
    started = time.perf_counter()
    check_ambiente(ambiente)
    scale = TESTE_SCALE if ambiente == "teste" else 1.0
    img = photos.load(source, MAX_SOURCE_SIDE)
    if scale != 1.0:
        img = img.resize(
            (max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.Resampling.LANCZOS
        )
    notes: list[str] = []
    layouts = []
    for op in pedido.operacoes:
        # Comparing `tipo` tells the type checker which operation model `op` is.
        if op.tipo == "texto" or op.tipo == "selo":
            canvas = Canvas.wrap(img)
            if op.tipo == "texto":
                _texto(img, op, canvas)
            else:
                _selo(img, op, canvas)
            layouts += canvas.layouts
        elif op.tipo == "fundo_branco":
            img = _fundo_branco(img, op, notes, scale)
        elif op.tipo == "enquadrar":
            img = _enquadrar(img, op, notes, scale)
        else:
            img = _ajuste(img, op, notes, scale)
    if ambiente == "teste":
        img = apply_watermark(img)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    img.save(out_path, "JPEG", quality=90, subsampling=0)
    return RenderedImage(
        posicao=1,
        kind="edicao",
        path=out_path,
        largura=img.width,
        altura=img.height,
        layouts=layouts,
        notes=notes,
        seconds=time.perf_counter() - started,
    )
