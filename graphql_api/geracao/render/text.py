"""Text that never leaves its box: word wrap, shrink-to-fit, then an ellipsis.

`layout_text` decides lines, positions and the font size without drawing; `Canvas.text` draws a
layout and keeps it, so a test can check every ink box against its container."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, overload

from PIL import Image, ImageDraw, ImageFont

from graphql_api.geracao.render import style

ELLIPSIS = "…"
LINE = 1.236  # em: the tallest DejaVu line from 14 px up (see _line_height)
Align = Literal["left", "center", "right"]
VAlign = Literal["top", "middle", "bottom"]


@dataclass(frozen=True, slots=True)
class Box:
    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    def inset(self, dx: float, dy: float | None = None) -> Box:
        dy = dx if dy is None else dy
        return Box(round(self.x0 + dx), round(self.y0 + dy), round(self.x1 - dx), round(self.y1 - dy))

    def contains(self, other: Box) -> bool:
        return self.x0 <= other.x0 and self.y0 <= other.y0 and other.x1 <= self.x1 and other.y1 <= self.y1

    def split(self, share: float, gap: float = 0, *, vertical: bool) -> tuple[Box, Box]:
        """Two boxes: the first takes `share` of the width (or of the height when vertical)."""
        if vertical:
            cut = self.y0 + round((self.height - gap) * share)
            return (Box(self.x0, self.y0, self.x1, cut), Box(self.x0, round(cut + gap), self.x1, self.y1))
        cut = self.x0 + round((self.width - gap) * share)
        return (Box(self.x0, self.y0, cut, self.y1), Box(round(cut + gap), self.y0, self.x1, self.y1))

    def rows(self, count: int, gap: float = 0) -> list[Box]:
        """`count` equal boxes stacked from top to bottom."""
        if count <= 0:
            return []
        step = (self.height - gap * (count - 1)) / count
        return [
            Box(self.x0, round(self.y0 + i * (step + gap)), self.x1, round(self.y0 + i * (step + gap) + step))
            for i in range(count)
        ]

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x0, self.y0, self.x1, self.y1)


@lru_cache(maxsize=256)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(style.FONT_BOLD if bold else style.FONT_REGULAR), size)


@dataclass(frozen=True, slots=True)
class TextLine:
    text: str
    x: int  # left of the line's advance box
    y: int  # top of the line (font ascender)
    ink: Box  # the pixels the glyphs actually cover


@dataclass(slots=True)
class TextLayout:
    box: Box  # the container
    size: int
    bold: bool
    lines: list[TextLine] = field(default_factory=list)
    truncated: bool = False  # an ellipsis replaced text that did not fit at the smallest size

    @property
    def ink(self) -> Box | None:
        if not self.lines:
            return None
        return Box(
            min(ln.ink.x0 for ln in self.lines),
            min(ln.ink.y0 for ln in self.lines),
            max(ln.ink.x1 for ln in self.lines),
            max(ln.ink.y1 for ln in self.lines),
        )

    @property
    def text(self) -> str:
        return "\n".join(ln.text for ln in self.lines)


def _break_word(word: str, f: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """A word wider than the box is cut into pieces that fit (URLs, codes, long compounds)."""
    pieces, current = [], ""
    for char in word:
        if current and f.getlength(current + char) > width:
            pieces.append(current)
            current = char
        else:
            current += char
    if current:
        pieces.append(current)
    return pieces


@overload
def wrap(text: str, f: ImageFont.FreeTypeFont, width: int, break_words: Literal[True] = True) -> list[str]: ...
@overload
def wrap(text: str, f: ImageFont.FreeTypeFont, width: int, break_words: bool) -> list[str] | None: ...
def wrap(text: str, f: ImageFont.FreeTypeFont, width: int, break_words: bool = True) -> list[str] | None:
    """Greedy word wrap that keeps the text's own line breaks. A word wider than `width` is cut
    into pieces, or makes the wrap fail (None) when `break_words` is false."""
    lines: list[str] = []
    space = f.getlength(" ")
    for paragraph in text.split("\n"):
        current, current_width = "", 0.0
        for word in paragraph.split():
            word_width = f.getlength(word)
            if word_width > width:
                if not break_words:
                    return None
                pieces = _break_word(word, f, width)
                if current:
                    lines.append(current)
                lines.extend(pieces[:-1])
                current, current_width = pieces[-1], f.getlength(pieces[-1])
            elif not current:
                current, current_width = word, word_width
            elif current_width + space + word_width <= width:
                current, current_width = f"{current} {word}", current_width + space + word_width
            else:
                lines.append(current)
                current, current_width = word, word_width
        lines.append(current)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _line_height(f: ImageFont.FreeTypeFont) -> float:
    """DejaVu's line (ascent + descent) is 1.17 to 1.24 em as each pixel size rounds it. Taking
    the largest, LINE em, at every size makes a layout scale: the 600 px teste image is the
    1200 px one in small (a faithful preview), and glyphs still never leave their box."""
    ascent, descent = f.getmetrics()
    return max(ascent + descent, LINE * f.size)


def _ellipsize(line: str, f: ImageFont.FreeTypeFont, width: int) -> str:
    line = line.rstrip(" .,;:")
    while line and f.getlength(line + ELLIPSIS) > width:
        line = line[:-1].rstrip(" .,;:")
    return line + ELLIPSIS


def _inner(box: Box, size: int) -> Box:
    """Room for the advance boxes: glyph ink overhangs them a little (j, f, Ç, Ã) at any size.
    In proportion to the size (a whole pixel at least), so a layout scales with its canvas."""
    return box.inset(max(1, round(size * 0.05)), _inset_y(size))


def _inset_y(size: int) -> int:
    return max(1, round(size * 0.04))


def _fits(lines: list[str], f: ImageFont.FreeTypeFont, box: Box, spacing: float, max_lines: int | None) -> bool:
    if max_lines is not None and len(lines) > max_lines:
        return False
    return _block_height(len(lines), f, spacing) <= box.height


def _block_height(count: int, f: ImageFont.FreeTypeFont, spacing: float) -> float:
    height = _line_height(f)
    return height * count + height * (spacing - 1) * max(count - 1, 0)


def text_height(lines: int, size: int, bold: bool = False, spacing: float = 1.18) -> float:
    """The height to plan for `lines` lines at font `size`: the least box they fit in (the inner
    inset included) and a tenth of the size more, so the plan, in fractions of a pixel and in
    proportion to the size, still holds once each box is rounded to whole pixels."""
    return _block_height(lines, font(size, bold), spacing) + 2 * _inset_y(size) + size * 0.1


def layout_text(
    text: str,
    box: Box,
    *,
    size: tuple[int, int],
    bold: bool = False,
    align: Align = "left",
    valign: VAlign = "top",
    max_lines: int | None = None,
    spacing: float = 1.18,
) -> TextLayout:
    """Place `text` inside `box`: the largest size in `size` (largest, smallest) at which the
    wrapped text fits; at the smallest size, the lines that fit and an ellipsis on the last."""
    largest, smallest = max(size), max(1, min(size))
    text = text.strip()
    if not text or _inner(box, smallest).width <= 0 or _inner(box, smallest).height <= 0:
        return TextLayout(box, smallest, bold, truncated=bool(text))
    chosen = None
    # Binary search on the size (wrapped height shrinks with it); cutting a word is the last
    # resort, tried only when no size fits the words whole.
    for break_words in (False, True):
        low, high = smallest, largest
        while low <= high:
            mid = (low + high) // 2
            inner = _inner(box, mid)
            lines = wrap(text, font(mid, bold), inner.width, break_words) if inner.width > 0 else None
            if lines and _fits(lines, font(mid, bold), inner, spacing, max_lines):
                chosen, low = (mid, lines), mid + 1
            else:
                high = mid - 1
        if chosen is not None:
            break
    truncated = False
    if chosen is None:
        f, inner = font(smallest, bold), _inner(box, smallest)
        lines = wrap(text, f, inner.width)
        room = max_lines if max_lines is not None else len(lines)
        while room > 0 and _block_height(room, f, spacing) > inner.height:
            room -= 1
        room = min(room, len(lines))
        if room == 0:
            return TextLayout(box, smallest, bold, truncated=True)
        truncated = room < len(lines)
        lines = lines[:room]
        if truncated:
            lines[-1] = _ellipsize(lines[-1], f, inner.width)
        chosen = (smallest, lines)
    size_px, lines = chosen
    f, box_in = font(size_px, bold), _inner(box, size_px)
    pitch = _line_height(f) * spacing
    block = _block_height(len(lines), f, spacing)
    top: float = box_in.y0
    if valign == "middle":
        top = box_in.y0 + (box_in.height - block) // 2
    elif valign == "bottom":
        top = box_in.y1 - block
    placed = []
    for i, line in enumerate(lines):
        width = f.getlength(line)
        left_edge: float = box_in.x0
        if align == "center":
            left_edge = box_in.x0 + (box_in.width - width) / 2
        elif align == "right":
            left_edge = box_in.x1 - width
        x, y = round(left_edge), round(top + i * pitch)
        # FreeType measures in whole pixels; Pillow types the box as floats
        left, ink_top, right, bottom = (int(v) for v in f.getbbox(line, anchor="la"))
        placed.append(TextLine(line, x, y, Box(x + left, y + ink_top, x + right, y + bottom)))
    return TextLayout(box, size_px, bold, placed, truncated)


class Canvas:
    """An RGB image with a drawing context that records every text layout drawn on it."""

    def __init__(
        self,
        size: tuple[int, int],
        background=style.WHITE,
        mode: str = "RGB",
        unit: float | None = None,
        legible: int = 1,
    ):
        self.image = Image.new(mode, size, background)
        self.draw = ImageDraw.Draw(self.image)
        self.layouts: list[TextLayout] = []
        self.notes: list[str] = []  # what the image could not do as well as it should, for the seller
        # An overlay (caption, title panel) takes the scale of the frame it is laid on.
        self.u = unit if unit is not None else style.unit(size)
        # No text is drawn smaller (cards pass style.legible_size: readable on a phone).
        self.legible = legible

    @classmethod
    def wrap(cls, image: Image.Image) -> Canvas:
        """Draw on an existing RGB image (edits write text over a photo)."""
        canvas = cls.__new__(cls)
        canvas.image, canvas.draw, canvas.layouts, canvas.notes = image, ImageDraw.Draw(image), [], []
        canvas.u, canvas.legible = style.unit(image.size), 1
        return canvas

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    @property
    def box(self) -> Box:
        return Box(0, 0, *self.image.size)

    def px(self, value: float) -> int:
        """A reference-side length in this canvas's pixels."""
        return max(1, round(value * self.u))

    def sizes(self, pair: tuple[int, int]) -> tuple[int, int]:
        """(largest, smallest) reference font sizes in this canvas's pixels, never below `legible`."""
        return (max(self.px(pair[0]), self.legible), max(self.px(pair[1]), self.legible))

    def needed_height(self, text: str, width: int, *, size: int, bold: bool = False, max_lines: int = 1) -> float:
        """The height of a box `width` wide that holds `text` at font `size` (canvas pixels),
        in at most `max_lines` lines (cut with an ellipsis beyond): rows sized before drawing."""
        layout = layout_text(text, Box(0, 0, width, 1 << 16), size=(size, size), bold=bold, max_lines=max_lines)
        return text_height(max(1, len(layout.lines)), size, bold)

    def text(self, text: str, box: Box, *, fill=style.INK, size=style.BODY_SIZE, **options) -> TextLayout:
        return self.draw_layout(layout_text(text, box, size=self.sizes(size), **options), fill)

    def text_group(
        self, items: list[tuple[str, Box]], *, fill=style.INK, size=style.BODY_SIZE, **options
    ) -> list[TextLayout]:
        """Texts of one list (rows, cards) at one common size: the size at which all fit."""
        largest, smallest = self.sizes(size)
        for text, box in items:
            largest = min(largest, layout_text(text, box, size=(largest, smallest), **options).size)
        return [
            self.draw_layout(layout_text(text, box, size=(largest, smallest), **options), fill) for text, box in items
        ]

    def draw_layout(self, layout: TextLayout, fill) -> TextLayout:
        f = font(layout.size, layout.bold)
        for line in layout.lines:
            self.draw.text((line.x, line.y), line.text, font=f, fill=fill, anchor="la")
        self.layouts.append(layout)
        return layout

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def panel(self, box: Box, fill=style.PANEL, outline=None, radius: float = style.RADIUS) -> None:
        self.draw.rounded_rectangle(
            box.as_tuple(), radius=self.px(radius), fill=fill, outline=outline, width=self.px(2) if outline else 0
        )
