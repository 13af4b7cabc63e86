"""Pixel measurements shared by the render tests."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops, ImageOps, ImageStat

from graphql_api.geracao.render.photo import Placement, PreparedPhoto
from graphql_api.geracao.render.types import FotoAprovada
from graphql_api.geracao.render.watermark import watermark_mask
from tests.render.cenarios import Cenario

# Written from the rule's definition, not from the renderer's constants, so a change of the
# renderer's rule fails the tests.
PHONE = 390  # px: the width a phone shows an image or a video at
LEGIBLE = 12  # px: the least font size (em) there


def watermark_contrast(teste: Image.Image, producao: Image.Image) -> tuple[float, float]:
    """Mean difference between a teste render and the production render of the same content
    (scaled to the teste size), inside and outside the watermark's area."""
    reference = producao.convert("L").resize(teste.size, Image.LANCZOS)
    diff = ImageChops.difference(teste.convert("L"), reference)
    inside = watermark_mask(teste.size).convert("L")
    outside = ImageOps.invert(inside)
    return ImageStat.Stat(diff, inside).mean[0], ImageStat.Stat(diff, outside).mean[0]


def assert_no_overflow(layouts, canvas_size) -> None:
    canvas = (0, 0, *canvas_size)
    for layout in layouts:
        ink = layout.ink
        if ink is None:
            continue
        assert layout.box.contains(ink), f"{layout.text[:40]!r}: ink {ink} outside its box {layout.box}"
        assert canvas[0] <= ink.x0 and canvas[1] <= ink.y0 and ink.x1 <= canvas[2] and ink.y1 <= canvas[3]


def assert_legible(layouts, width: int) -> None:
    """Every text drawn is LEGIBLE px at a PHONE view of an image (or frame) `width` px wide, and
    none was cut away whole (an ellipsis is fine, an empty box is not)."""
    for layout in layouts:
        seen = layout.size * PHONE / width
        assert seen >= LEGIBLE, f"{layout.text[:40]!r}: {layout.size} px is {seen:.1f} px at {PHONE} px wide"
        assert layout.lines or not layout.truncated, f"a text vanished from its box {layout.box}"


def foto_de(cenario: Cenario, pasta: Path, ordem: int = 1, principal: bool | None = None) -> FotoAprovada:
    """The scene's photo as an approved photo on disk (ordem 1 is the principal unless told)."""
    pasta.mkdir(parents=True, exist_ok=True)
    extensao = "png" if cenario.dados.startswith(b"\x89PNG") else "jpg"
    path = pasta / f"{ordem:02d}-{cenario.nome}.{extensao}"
    path.write_bytes(cenario.dados)
    largura, altura = cenario.mascara.size
    return FotoAprovada(path, ordem, ordem == 1 if principal is None else principal, largura, altura)


def caixa_verdadeira(cenario: Cenario, photo: PreparedPhoto, onde: Placement) -> tuple[float, float, float, float]:
    """The scene's true product box (its ground-truth mask) where it landed: the photo as sent
    mapped into the prepared photo, then by `onde` onto a canvas."""
    box = cenario.mascara.getbbox()
    assert box is not None
    landed = photo.origem.then(onde)
    return (
        landed.x + box[0] * landed.scale,
        landed.y + box[1] * landed.scale,
        landed.x + box[2] * landed.scale,
        landed.y + box[3] * landed.scale,
    )
