"""The "AMOSTRA" watermark of the test environment: one large word along the image's diagonal,
dark grey with a white outline at about 45% opacity, so it reads on white backgrounds, on
photos and on the navy header band alike, and cannot be cropped away without losing the product."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from graphql_api.geracao.render.text import font

WORD = "AMOSTRA"
OPACITY = 115  # of 255
FILL = (40, 40, 40)
OUTLINE = (255, 255, 255)


@lru_cache(maxsize=16)
def watermark_layer(size: tuple[int, int]) -> Image.Image:
    """An RGBA layer of `size` holding the diagonal word (transparent elsewhere)."""
    width, height = size
    diagonal = math.hypot(width, height)
    angle = math.degrees(math.atan2(height, width))
    probe = font(100, True)
    # The word spans about 70% of the diagonal; its height stays under a quarter of the short side.
    text_size = max(8, min(int(100 * 0.70 * diagonal / probe.getlength(WORD)), int(min(size) * 0.25 / 0.73)))
    f = font(text_size, True)
    stroke = max(1, text_size // 28)
    # FreeType measures in whole pixels; Pillow types the box as floats
    left, top, right, bottom = (int(v) for v in f.getbbox(WORD, stroke_width=stroke))
    strip = Image.new("RGBA", (right - left + 4, bottom - top + 4), (0, 0, 0, 0))
    ImageDraw.Draw(strip).text(
        (2 - left, 2 - top),
        WORD,
        font=f,
        fill=FILL + (255,),
        stroke_width=stroke,
        stroke_fill=OUTLINE + (255,),
    )
    rotated = strip.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    alpha = rotated.getchannel("A").point(lambda a: a * OPACITY // 255)
    rotated.putalpha(alpha)
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    layer.paste(rotated, ((width - rotated.width) // 2, (height - rotated.height) // 2), rotated)
    return layer


def watermark_mask(size: tuple[int, int], threshold: int = 40) -> Image.Image:
    """Where the watermark is clearly painted (mode "1"), for checks and tests."""
    return watermark_layer(size).getchannel("A").point(lambda a: 255 if a >= threshold else 0).convert("1")


def apply_watermark(image: Image.Image) -> Image.Image:
    """`image` with the watermark composited over it (RGB in, RGB out)."""
    base = image.convert("RGBA")
    base.alpha_composite(watermark_layer(base.size))
    return base.convert("RGB")
