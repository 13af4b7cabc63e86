"""Pixel measurements shared by the render tests."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageOps, ImageStat

from graphql_api.geracao.render.watermark import watermark_mask


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
