"""Vitrine's visual identity for rendered media: one palette, one typeface, one grid.

Every size is expressed for a 1200-pixel reference side and scaled by `unit(size)`, so a 600×600
test image, a 1200×1200 gallery image and a 1080×1920 video card share proportions; a wide video
card takes larger type (`text_unit`) to stay legible on a phone."""

from __future__ import annotations

import math
from pathlib import Path

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")  # Debian's fonts-dejavu-core (scripts/install)
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

WHITE = (255, 255, 255)
INK = (31, 41, 51)  # body text
MUTED = (82, 96, 109)  # labels, secondary text
NAVY = (22, 50, 79)  # header band, arrows
ACCENT = (242, 165, 65)  # stars, badges, the accent strip
PANEL = (241, 244, 248)  # cards behind text
PANEL_EDGE = (218, 225, 233)
BACKDROP_TOP = (250, 251, 253)  # video photo backdrop, a soft vertical gradient
BACKDROP_BOTTOM = (228, 233, 240)

REFERENCE_SIDE = 1200
MARGIN = 72  # outer margin of infographics
PHOTO_MARGIN = 0.07  # share of the side left around the product on photo images
HEADER = 168  # header band height
HEADER_COMPACT = 112  # the band with the title only (short canvases)
ACCENT_STRIP = 12
RADIUS = 22
GAP = 24

# Legibility on a phone. Marketplaces show a gallery image, and a feed shows a video, across the
# width of a phone held upright: about 390 CSS px (the common iPhone and Android width). Every
# text on a card must be at least 12 px there, measured as the font size (the em, what CSS calls
# font-size, which is how labels of 20 and 28 px at 1200 read 6.5 and 9 px on the phone: too
# small). DejaVu Sans' capitals are 0.73 em tall, so 12 px em is a cap height of 8.75 px there.
PHONE_WIDTH = 390
LEGIBLE_PX = 12
# The smallest size any card text is given, at the reference side: 1200 shown at 390 is a
# 0.325 scale, so 12 px needs 36.9 there; 38 also gives 19 at 600 (needs 18.5) with no rounding.
SMALLEST_TEXT = 38

TITLE_SIZE = (64, 44)  # (largest, smallest) font sizes at the reference side
SUBTITLE_SIZE = (40, SMALLEST_TEXT)
BODY_SIZE = (46, SMALLEST_TEXT)
LABEL_SIZE = (SMALLEST_TEXT, SMALLEST_TEXT)  # bold and muted: weight and colour set it apart


def unit(size: tuple[int, int]) -> float:
    """Scale factor of a canvas relative to the 1200-pixel reference (its shorter side)."""
    return min(size) / REFERENCE_SIDE


def legible_size(width: int) -> int:
    """The smallest font size (em, in the image's own pixels) that is LEGIBLE_PX tall when an
    image `width` pixels wide is shown PHONE_WIDTH px wide: 37 at 1200, 19 at 600, 60 for a
    1920×1080 frame, 34 for 1080×1920."""
    return math.ceil(LEGIBLE_PX * width / PHONE_WIDTH - 1e-9)


def text_unit(size: tuple[int, int], width: int | None = None, scale: float = 1.0) -> float:
    """The scale of a card's type and spacing: `scale` × `unit(size)`, or more when that would
    put SMALLEST_TEXT under `legible_size` of the image's width (`width`, when the canvas is a
    part of a wider frame). Square images keep their unit; wide video frames, seen at 390 px
    wide, get larger type and so fewer rows."""
    return max(unit(size) * scale, legible_size(width or size[0]) / SMALLEST_TEXT)


def check_fonts() -> None:
    for path in (FONT_REGULAR, FONT_BOLD):
        if not path.is_file():
            raise RuntimeError(f"{path} is missing: install fonts-dejavu-core (scripts/install).")
