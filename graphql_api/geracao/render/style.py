"""Vitrine's visual identity for rendered media: one palette, one typeface, one grid.

Every size is expressed for a 1200-pixel reference side and scaled by `unit(size)`, so a 600×600
test image, a 1200×1200 gallery image and a 1920×1080 video card share proportions."""

from __future__ import annotations

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
ACCENT_STRIP = 12
RADIUS = 22
GAP = 24
TITLE_SIZE = (64, 34)  # (largest, smallest) font sizes at the reference side
SUBTITLE_SIZE = (34, 22)
BODY_SIZE = (40, 22)
LABEL_SIZE = (28, 20)


def unit(size: tuple[int, int]) -> float:
    """Scale factor of a canvas relative to the 1200-pixel reference (its shorter side)."""
    return min(size) / REFERENCE_SIDE


def check_fonts() -> None:
    for path in (FONT_REGULAR, FONT_BOLD):
        if not path.is_file():
            raise RuntimeError(f"{path} is missing: install fonts-dejavu-core (scripts/install).")
