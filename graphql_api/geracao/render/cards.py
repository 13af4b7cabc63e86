"""One composer per image kind, for any canvas shape: square gallery images, 16:9 and 9:16 video
cards. Each takes the ficha (as stored), the prepared photos and a size, and returns a Canvas
whose `layouts` list every text box drawn.

Infographics share one frame: a navy header band with the kind's title and the product name,
white body with the outer margin, and an amber strip at the bottom."""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from graphql_api.geracao.render import observacoes, style
from graphql_api.geracao.render import photo as photos
from graphql_api.geracao.render.text import Box, Canvas, font, layout_text, text_height
from graphql_api.geracao.render.types import OUTPUT_ERRORS, FotoAprovada, OutputError, ordered_fotos
from graphql_api.midia import enquadramento

TITLES = {
    "destaques": "Destaques",
    "medidas": "Medidas",
    "conteudo": "O que vem na caixa",
    "garantia": "Garantia",
    "avaliacoes": "Avaliações",
    "perguntas": "Perguntas frequentes",
}
COMPACT_BELOW = 900  # reference px: a canvas shorter than this has a header band without the name
QUOTE_SIZE = (40, style.SMALLEST_TEXT)  # review quotes
QUESTION_SIZE = (40, style.SMALLEST_TEXT)
ANSWER_SIZE = (40, style.SMALLEST_TEXT)
UNITS = {"mm": "mm", "cm": "cm", "m": "m", "g": "g", "kg": "kg"}
_SWAP_SEPARATORS = str.maketrans(",.", ".,")


@dataclass
class Context:
    """The material of one render: the ficha, its photos in gallery order, and a cache of
    prepared photos (each photo is decoded and cut out once per render)."""

    ficha: dict
    fotos: list[FotoAprovada]
    max_side: int
    scale: float = 1.0  # type and spacing relative to the canvas: video cards use larger type
    narrated: bool = False  # video cards: the narration says the brand and reads the attributes
    producao: float = 1.0  # the production image's side / this one's: notes speak of production
    _cache: dict = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.fotos = ordered_fotos(self.fotos)

    @property
    def principal(self) -> FotoAprovada:
        # Only drawings that show a photo ask, and their plans require at least one photo.
        if not self.fotos:
            raise ValueError("no photo to draw: this render needs at least one photo")
        return self.fotos[0]

    def produto(self) -> FotoAprovada | None:
        """The photo the product is shown from (main image, cards): the first in gallery order
        whose product can be cut out; None when none can. A photo that cannot be read raises."""
        for foto in self.fotos:
            if self.photo(foto).separavel:
                return foto
        return None

    def canvas(self, size: tuple[int, int]) -> Canvas:
        # A card is as wide as its image or frame: its type reads on a phone (style.legible_size).
        return Canvas(size, unit=style.text_unit(size, scale=self.scale), legible=style.legible_size(size[0]))

    def warm(self, pool, fotos) -> None:
        """Prepare photos in parallel ahead of use. A photo that fails is not reported here: each
        output that needs it fails in turn, and says so."""

        def prepare(foto: FotoAprovada) -> None:
            with contextlib.suppress(*OUTPUT_ERRORS):
                self.photo(foto)

        list(pool.map(prepare, sorted(set(fotos), key=lambda f: f.ordem)))

    def photo(self, foto: FotoAprovada) -> photos.PreparedPhoto:
        with self._lock:
            cached = self._cache.get(foto.path)
        if cached is None:
            cached = photos.prepare(foto.path, self.max_side)
            with self._lock:
                self._cache[foto.path] = cached
        return cached


# -- numbers and words in Brazilian Portuguese --------------------------------------------------


def number(value: float, decimals: int = 2) -> str:
    """1287 -> '1.287'; 7.5 -> '7,5'; 999999.99 -> '999.999,99'."""
    text = f"{value:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.translate(_SWAP_SEPARATORS)


def rating(value: float) -> str:
    """4.8 -> '4,8'; 5 -> '5,0'."""
    return f"{value:.1f}".replace(".", ",")


def measure(value: float, unit: str | None) -> str:
    return f"{number(value)} {UNITS[unit]}" if unit else number(value)


# -- what the ficha supports ----------------------------------------------------------------------


def attribute_rows(ficha: dict) -> list[tuple[str, str]]:
    rows = [(label, ficha[key]) for key, label in (("marca", "Marca"), ("modelo", "Modelo")) if ficha.get(key)]
    return rows + [(a["nome"], a["valor"]) for a in ficha.get("atributos") or []]


def dimension_entries(ficha: dict) -> dict[str, str]:
    """The measurements to draw, labelled: largura, altura, profundidade, peso."""
    dims = ficha.get("dimensoes") or {}
    entries = {
        key: measure(dims[key], dims.get("unidade"))
        for key in ("largura", "altura", "profundidade")
        if dims.get(key) is not None
    }
    weight = dims.get("pesoLiquido", dims.get("pesoBruto"))
    if entries and weight is not None:
        entries["peso"] = measure(weight, dims.get("unidadePeso"))
    return entries


def social_proof(ficha: dict) -> dict:
    """Average rating, number of ratings and units sold, from provaSocial, else from avaliacoes."""
    prova = ficha.get("provaSocial") or {}
    notas = [a["nota"] for a in ficha.get("avaliacoes") or []]
    media = prova.get("notaMedia")
    if media is None and notas:
        media = sum(notas) / len(notas)
    total = prova.get("totalAvaliacoes")
    if total is None and notas:
        total = len(notas)
    return {"media": media, "total": total, "vendidos": prova.get("vendidos")}


def best_reviews(ficha: dict) -> list[dict]:
    """Reviews with text, best rated first, newest first among equals."""
    reviews = [a for a in ficha.get("avaliacoes") or [] if (a.get("texto") or "").strip()]
    return sorted(reviews, key=lambda a: (a["nota"], a.get("data") or ""), reverse=True)


SUPPORTS: dict[str, Callable[[dict], bool]] = {
    "destaques": lambda f: bool(f.get("atributos")),
    "medidas": lambda f: bool(dimension_entries(f)),
    "conteudo": lambda f: bool(f.get("composicaoOferta")),
    "garantia": lambda f: bool((f.get("garantia") or "").strip()),
    "avaliacoes": lambda f: social_proof(f)["media"] is not None or bool(social_proof(f)["vendidos"]),
    "perguntas": lambda f: bool(f.get("perguntas")),
}


# -- shared drawing -----------------------------------------------------------------------------


def compact(canvas: Canvas) -> bool:
    """A short canvas: a wide video card, whose type is large to read on a phone."""
    return canvas.size[1] < canvas.px(COMPACT_BELOW)


def frame(canvas: Canvas, title: str, subtitle: str) -> Box:
    """Header band, bottom strip; returns the body box inside the margins. A compact canvas keeps
    the band to the title (the product's name is on the video's opening) and narrower margins
    above and below the body."""
    width, height = canvas.size
    short = compact(canvas)
    band = canvas.px(style.HEADER_COMPACT if short else style.HEADER)
    margin = canvas.px(style.MARGIN)
    canvas.draw.rectangle([0, 0, width, band], fill=style.NAVY)
    canvas.draw.rectangle([0, height - canvas.px(style.ACCENT_STRIP), width, height], fill=style.ACCENT)
    inner = Box(margin, canvas.px(18), width - margin, band - canvas.px(14))
    if short:
        canvas.text(title, inner, fill=style.WHITE, size=style.TITLE_SIZE, bold=True, max_lines=1, valign="middle")
    else:
        title_box, subtitle_box = inner.split(0.6, vertical=True)
        canvas.text(title, title_box, fill=style.WHITE, size=style.TITLE_SIZE, bold=True, max_lines=1, valign="bottom")
        canvas.text(
            subtitle, subtitle_box, fill=(200, 214, 229), size=style.SUBTITLE_SIZE, max_lines=1, valign="middle"
        )
    air = margin // 3 if short else margin * 2 // 3
    return Box(margin, band + air, width - margin, height - canvas.px(style.ACCENT_STRIP) - air)


def split_for_photo(canvas: Canvas, body: Box, share: float = 0.4) -> tuple[Box, Box]:
    """(photo box, content box): side by side on square and wide canvases, stacked on tall ones.
    A compact canvas gives the text more of its width: the photo is as short as the body."""
    vertical = canvas.size[1] > canvas.size[0] * 1.1
    return body.split(share * 0.75 if compact(canvas) else share, canvas.px(style.GAP) * 2, vertical=vertical)


def rows_that_fit(
    needed: Callable[[int], float], total: int, box: Box, gap: int, limit: int, more: float = 0
) -> tuple[int, list[float]]:
    """(rows shown, their least heights): the first rows, row i needing `needed(i)`, that fit in
    `box` one above the other, at most `limit` rows. When rows are left out and `more` is given,
    a last "more" row of that height (e mais N …) counts in the limit. At least one row."""
    heights: list[float] = []
    for i in range(min(total, limit)):
        height = needed(i)
        if sum(heights) + height + gap * len(heights) > box.height:
            break
        heights.append(height)
    if len(heights) < total and more:
        while heights and (len(heights) >= limit or sum(heights) + more + gap * len(heights) > box.height):
            heights.pop()
        if heights:
            return len(heights), [*heights, more]
    if not heights:  # not even one row: the first takes the box, its text cut to fit
        return 1, [float(box.height)]
    return len(heights), heights


def stack(box: Box, heights: list[float], gap: int) -> list[Box]:
    """Rows of at least `heights`, top to bottom, filling `box`: the room left is shared evenly."""
    extra = max(0, box.height - sum(heights) - gap * (len(heights) - 1)) / max(len(heights), 1)
    rows, top = [], float(box.y0)
    for height in heights:
        rows.append(Box(box.x0, round(top), box.x1, round(top + height + extra)))
        top += height + extra + gap
    return rows


def label_and_value(
    label: str, value: str, width: int, size: int, separator: str = ": ", bold: bool = True
) -> tuple[str, int]:
    """("Peso: 380 g", 1) when that fits one line `width` wide at font `size`, else the label over
    the value, ("Profundidade\n7,5 cm", 2): a measure is never cut between number and unit."""
    one_line = f"{label}{separator}{value}"
    if len(layout_text(one_line, Box(0, 0, width, 1 << 16), size=(size, size), bold=bold).lines) == 1:
        return one_line, 1
    return f"{label}\n{value}", 2


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, fill) -> None:
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    draw.polygon(points, fill=fill)


def stars(canvas: Canvas, x: int, y: int, height: int, score: float) -> Box:
    """Five stars, filled up to `score` (partial stars included); returns their box."""
    radius = height / 2
    step = height * 1.15
    width = round(step * 5)
    fill_mask = Image.new("L", (width, height), 0)
    mask_draw = ImageDraw.Draw(fill_mask)
    for i in range(5):
        star(canvas.draw, x + step * i + radius, y + radius, radius, style.PANEL_EDGE)
        star(mask_draw, step * i + radius, radius, radius, 255)
    cut = round(step * int(score) + 2 * radius * (score - int(score)))
    mask_draw.rectangle([cut, 0, width, height], fill=0)
    canvas.image.paste(style.ACCENT, (x, y), fill_mask)
    return Box(x, y, x + width, y + height)


def product(ctx: Context, canvas: Canvas, box: Box, foto: FotoAprovada | None = None, *, shadow: bool = False) -> Box:
    """The product of `foto` (default: the photo the product is shown from, else the principal
    photo whole) as large as fits in `box`, cut out through its mask; returns its landed box. What
    it compromised (backdrop kept, enlarged) goes to the canvas's notes."""
    foto = foto or ctx.produto() or ctx.principal
    prepared = ctx.photo(foto)
    at = photos.fit(prepared, box)
    landed = at.map(prepared.caixa)
    if shadow:
        photos.contact_shadow(canvas.image, prepared, landed)
    photos.draw(canvas.image, prepared, at)
    for note in prepared.notes:
        canvas.note(note)
    enlarged = max(landed.width, landed.height) * ctx.producao / prepared.lado_produto
    if enlarged > enquadramento.AMPLIACAO_TOLERADA:
        canvas.note(observacoes.ampliado(enlarged))
    return landed


Point = tuple[float, float]


def arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, width: int) -> None:
    """A double-headed measuring arrow with end ticks."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = width * 4.5
    draw.line([start, end], fill=style.NAVY, width=width)
    for (px, py), sign in ((start, 1), (end, -1)):
        tip = (px, py)
        left = (px + sign * ux * head - uy * head * 0.55, py + sign * uy * head + ux * head * 0.55)
        right = (px + sign * ux * head + uy * head * 0.55, py + sign * uy * head - ux * head * 0.55)
        draw.polygon([tip, left, right], fill=style.NAVY)
        draw.line(
            [(px - uy * head, py + ux * head), (px + uy * head, py - ux * head)],
            fill=style.NAVY,
            width=max(1, width // 2),
        )


# -- composers ------------------------------------------------------------------------------------


def compose_principal(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    """The product alone on pure white: its long side PREENCHIMENTO of the side, centred, with a
    soft shadow drawn from its mask. Only a photo whose product can be cut out makes it."""
    foto = foto or ctx.produto() or ctx.principal
    if not ctx.photo(foto).separavel:
        raise OutputError(observacoes.SEM_FOTO_RECORTAVEL)
    canvas = compose_angulo(ctx, size, foto)
    if foto != ctx.principal:
        canvas.note(observacoes.principal_de_outra_foto(foto.ordem, ctx.principal.ordem))
    return canvas


def compose_angulo(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    """A photo on pure white: the cut-out product framed as on the main image, or, when it cannot
    be cut out, the whole photo inside the photo margin."""
    canvas = ctx.canvas(size)
    foto = foto or ctx.principal
    if ctx.photo(foto).separavel:
        lado = min(size) * enquadramento.PREENCHIMENTO
        cx, cy = size[0] / 2, size[1] / 2
        box = Box(round(cx - lado / 2), round(cy - lado / 2), round(cx + lado / 2), round(cy + lado / 2))
        product(ctx, canvas, box, foto, shadow=True)
    else:
        product(ctx, canvas, canvas.box.inset(round(min(size) * style.PHOTO_MARGIN)), foto)
    return canvas


def compose_destaques(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    canvas = ctx.canvas(size)
    body = frame(canvas, TITLES["destaques"], ctx.ficha["nome"])
    photo_box, list_box = split_for_photo(canvas, body)
    product(ctx, canvas, photo_box)
    rows = attribute_rows(ctx.ficha)
    if ctx.narrated:  # the video says the brand in its opening, and reads the attributes out
        rows = [(label, value) for label, value in rows if label not in ("Marca", "Modelo")]
    gap, pad_x, pad_y, beside_gap = canvas.px(16), canvas.px(22), canvas.px(12), canvas.px(20)
    label_size, value_size = canvas.sizes(style.LABEL_SIZE)[1], canvas.sizes(style.BODY_SIZE)[1]
    label_height = text_height(1, label_size, bold=True)
    width = list_box.width - 2 * pad_x
    # A row is its label over a value of one or two lines (longer values end in an ellipsis); on a
    # short card (a wide video frame) the label is beside the value, in up to two lines too.
    beside = compact(canvas)
    label_font = font(label_size, bold=True)
    widest = max(label_font.getlength(label) for label, _ in rows[:6]) + label_size * 0.1 + 2
    label_width = min(math.ceil(widest), width // 2) if beside else width
    value_width = width - label_width - beside_gap if beside else width

    def needed(i: int) -> float:
        value = canvas.needed_height(rows[i][1], value_width, size=value_size, max_lines=2)
        if beside:
            return 2 * pad_y + max(
                value, canvas.needed_height(rows[i][0], label_width, size=label_size, bold=True, max_lines=2)
            )
        return 2 * pad_y + label_height + value

    count, heights = rows_that_fit(needed, len(rows), list_box, gap, 6, more=2 * pad_y + text_height(1, value_size))
    labels, values = [], []
    cards = stack(list_box, heights, gap)
    for (label, value), row in zip(rows[:count], cards, strict=False):
        canvas.panel(row)
        inner = row.inset(pad_x, pad_y)
        if beside:
            labels.append((label, Box(inner.x0, inner.y0, inner.x0 + label_width, inner.y1)))
            values.append((value, Box(inner.x0 + label_width + beside_gap, inner.y0, inner.x1, inner.y1)))
        else:
            split = round(inner.y0 + label_height)
            labels.append((label, Box(inner.x0, inner.y0, inner.x1, split)))
            values.append((value, Box(inner.x0, split, inner.x1, inner.y1)))
    canvas.text_group(labels, fill=style.MUTED, size=style.LABEL_SIZE, bold=True, max_lines=2 if beside else 1)
    canvas.text_group(values, size=style.BODY_SIZE, max_lines=2)
    if len(cards) > count:
        canvas.panel(cards[-1])
        more = f"e mais {len(rows) - count} características"
        canvas.text(
            more, cards[-1].inset(pad_x, pad_y), fill=style.MUTED, size=style.LABEL_SIZE, max_lines=1, valign="middle"
        )
    return canvas


def compose_medidas(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    canvas = ctx.canvas(size)
    body = frame(canvas, TITLES["medidas"], ctx.ficha["nome"])
    entries = dimension_entries(ctx.ficha)
    strip_items = [
        (label, entries[key]) for key, label in (("profundidade", "Profundidade"), ("peso", "Peso")) if key in entries
    ]
    smallest = canvas.sizes(style.BODY_SIZE)[1]
    if strip_items:
        pad_x, pad_y, cell_gap = canvas.px(20), canvas.px(8), canvas.px(style.GAP)
        if body.width > body.height * 2:  # a wide video card: a column at the right, the product stays large
            texts = [(f"{label}\n{value}", 2) for label, value in strip_items]
            body, strip = body.split(0.64, cell_gap * 2, vertical=False)
            cells = strip.inset(pad_x, pad_y).rows(len(texts), cell_gap)
        else:
            cell_width = (body.width - 2 * pad_x - cell_gap * (len(strip_items) - 1)) // len(strip_items)
            texts = [label_and_value(label, value, cell_width, smallest) for label, value in strip_items]
            # A strip under the product: 16 % of the body, or what its labels need at the smallest size.
            needed = text_height(max(lines for _, lines in texts), smallest, bold=True)
            share = 1 - max(0.16, (needed + 2 * pad_y) / max(body.height - cell_gap, 1))
            body, strip = body.split(share, cell_gap, vertical=True)
            inner = strip.inset(pad_x, pad_y)
            cells = list(inner.split(0.5, cell_gap, vertical=False)) if len(texts) == 2 else [inner]
        canvas.panel(strip)
        canvas.text_group(
            [(text, cell) for (text, _), cell in zip(texts, cells, strict=False)],
            size=style.BODY_SIZE,
            bold=True,
            max_lines=max(lines for _, lines in texts),
            valign="middle",
            align="center",
        )
    gutter_x = round(body.width * 0.26) if "altura" in entries else 0
    width_label, width_lines = label_and_value(
        "Largura", entries.get("largura", ""), body.width - gutter_x, smallest, " "
    )
    # Room under the product for the arrow and its label (see the label's box).
    gutter_y = (
        max(round(body.height * 0.16), canvas.px(22) * 3 // 2 + round(text_height(width_lines, smallest, bold=True)))
        if "largura" in entries
        else 0
    )
    photo_box = Box(body.x0 + gutter_x, body.y0, body.x1, body.y1 - gutter_y)
    landed = product(ctx, canvas, photo_box.inset(canvas.px(8)))  # the arrows span the product's mask
    line = canvas.px(5)
    gap = canvas.px(22)
    if "largura" in entries:
        y = landed.y1 + gap
        arrow(canvas.draw, (landed.x0, y), (landed.x1, y), line)
        label_box = Box(photo_box.x0, y + gap // 2, photo_box.x1, body.y1)
        canvas.text(
            width_label,
            label_box,
            size=style.BODY_SIZE,
            bold=True,
            align="center",
            valign="middle",
            max_lines=width_lines,
        )
    if "altura" in entries:
        x = landed.x0 - gap
        arrow(canvas.draw, (x, landed.y0), (x, landed.y1), line)
        # Beside the arrow, and at least two lines tall when the product is flat.
        middle, half = (
            (landed.y0 + landed.y1) // 2,
            round(max(landed.height, text_height(2, smallest, bold=True)) / 2),
        )
        label_box = Box(body.x0, max(body.y0, middle - half), x - gap // 2, min(body.y1, middle + half))
        canvas.text(
            f"Altura\n{entries['altura']}",
            label_box,
            size=style.BODY_SIZE,
            bold=True,
            align="right",
            valign="middle",
            max_lines=4,
        )
    return canvas


def compose_conteudo(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    canvas = ctx.canvas(size)
    body = frame(canvas, TITLES["conteudo"], ctx.ficha["nome"])
    photo_box, list_box = split_for_photo(canvas, body, 0.34)
    product(ctx, canvas, photo_box)
    items = ctx.ficha["composicaoOferta"]
    gap, pad, inner_gap = canvas.px(14), canvas.px(12), canvas.px(16)
    smallest = canvas.sizes(style.BODY_SIZE)[1]
    # The badge is as wide as the longest quantity at the smallest size (10.000× is not cut).
    badge_font = font(smallest, bold=True)
    widest = max(badge_font.getlength(f"{number(i['quantidade'])}×") for i in items)
    badge_width = min(
        max(round(widest + smallest * 0.1 + canvas.px(24)), round(list_box.width * 0.22)), list_box.width // 2
    )
    name_width = list_box.width - 2 * pad - badge_width - inner_gap
    count, heights = rows_that_fit(
        lambda i: 2 * pad + canvas.needed_height(items[i]["item"], name_width, size=smallest, max_lines=2),
        len(items),
        list_box,
        gap,
        8,
        more=2 * pad + text_height(1, smallest),
    )
    shown = [(f"{number(i['quantidade'])}×", i["item"]) for i in items[:count]]
    if len(heights) > count:
        shown.append(("+", f"mais {len(items) - count} itens"))
    badges, names = [], []
    for (quantity, item), row in zip(shown, stack(list_box, heights, gap), strict=False):
        canvas.panel(row)
        inner = row.inset(pad)
        badge_box = Box(inner.x0, inner.y0, inner.x0 + badge_width, inner.y1)
        text_box = Box(badge_box.x1 + inner_gap, inner.y0, inner.x1, inner.y1)
        canvas.draw.rounded_rectangle(badge_box.as_tuple(), radius=canvas.px(14), fill=style.ACCENT)
        badges.append((quantity, badge_box))
        names.append((item, text_box))
    canvas.text_group(
        badges, fill=style.NAVY, size=style.BODY_SIZE, bold=True, max_lines=1, align="center", valign="middle"
    )
    canvas.text_group(names, size=style.BODY_SIZE, valign="middle", max_lines=2)
    return canvas


def shield(canvas: Canvas, box: Box) -> None:
    side = min(box.width, box.height)
    w, h = side * 0.78, side
    x0, y0 = box.x0 + (box.width - w) / 2, box.y0 + (box.height - h) / 2
    outline = [
        (x0, y0 + h * 0.14),
        (x0 + w / 2, y0),
        (x0 + w, y0 + h * 0.14),
        (x0 + w, y0 + h * 0.5),
        (x0 + w / 2, y0 + h),
        (x0, y0 + h * 0.5),
    ]
    canvas.draw.polygon(outline, fill=style.NAVY)
    check = [(x0 + w * 0.27, y0 + h * 0.5), (x0 + w * 0.45, y0 + h * 0.66), (x0 + w * 0.76, y0 + h * 0.33)]
    canvas.draw.line(check, fill=style.ACCENT, width=max(2, round(side * 0.08)), joint="curve")


def compose_garantia(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    canvas = ctx.canvas(size)
    body = frame(canvas, TITLES["garantia"], ctx.ficha["nome"])
    wide = size[0] > size[1] * 1.1
    icon_box, text_box = body.split(0.3 if wide else 0.42, canvas.px(style.GAP) * 2, vertical=not wide)
    shield(canvas, icon_box.inset(canvas.px(10)))
    canvas.panel(text_box)
    canvas.text(
        ctx.ficha["garantia"],
        text_box.inset(canvas.px(36)),
        size=(60, style.SMALLEST_TEXT),
        bold=True,
        align="center",
        valign="middle",
        fill=style.NAVY,
    )
    return canvas


def compose_avaliacoes(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    canvas = ctx.canvas(size)
    body = frame(canvas, TITLES["avaliacoes"], ctx.ficha["nome"])
    proof = social_proof(ctx.ficha)
    reviews = best_reviews(ctx.ficha)
    # A wide body (a video card) puts the summary in a column beside the reviews, else above them.
    column = body.width > body.height * 2
    if reviews:
        gap = canvas.px(style.GAP) * (2 if column else 1)
        summary, quotes = body.split(0.34 if column else 0.38, gap, vertical=not column)
    else:
        summary, quotes = body, None
    facts = []
    if proof["total"]:
        facts.append(f"{number(proof['total'])} avaliações")
    if proof["vendidos"]:
        facts.append(f"{number(proof['vendidos'])} vendidos")
    smallest, largest = canvas.sizes(style.BODY_SIZE)[1], canvas.sizes(style.BODY_SIZE)[0]

    def joined(width: int) -> tuple[str, int]:  # "1.287 avaliações · 5.400 vendidos", or one over the other
        if len(facts) < 2:
            return "".join(facts), 2
        return label_and_value(facts[0], facts[1], width, smallest, " · ", bold=False)

    (counts, lines), facts_box, align = joined(summary.width), summary, "left"
    if proof["media"] is not None:
        below = canvas.px(10)
        if column:  # the score, the stars under it, the counts at the bottom, centred
            score_box = rest = summary
            star_height = min(round(summary.width / 5.9), round(summary.height * 0.2))
        else:  # the score, and beside it the stars over the counts
            score_box, rest = summary.split(0.34, canvas.px(style.GAP), vertical=False)
            star_height = min(round(rest.width / 5.9), round(rest.height * 0.45))
        counts, lines = joined(rest.width)
        counts_height = (
            round(canvas.needed_height(counts, rest.width, size=largest, max_lines=lines)) + below if facts else 0
        )
        if column:
            top = rest.y1 - counts_height - star_height
            score_box = Box(summary.x0, summary.y0, summary.x1, top - below)
            left, align = rest.x0 + (rest.width - round(star_height * 1.15 * 5)) // 2, "center"
        else:
            top, left = rest.y0 + max(0, (rest.height - star_height - counts_height) // 2), rest.x0
        stars(canvas, left, top, star_height, float(proof["media"]))
        facts_box = Box(rest.x0, top + star_height + below, rest.x1, min(rest.y1, top + star_height + counts_height))
        canvas.text(
            rating(proof["media"]),
            score_box,
            size=(150, 44),
            bold=True,
            fill=style.NAVY,
            align="center",
            valign="middle",
            max_lines=1,
        )
    if facts:
        canvas.text(counts, facts_box, size=style.BODY_SIZE, fill=style.MUTED, max_lines=lines, align=align)
    if quotes is not None:
        gap, pad_x, pad_y = canvas.px(16), canvas.px(22), canvas.px(16)
        star_h, below = canvas.px(30), canvas.px(8)
        smallest = canvas.sizes(QUOTE_SIZE)[1]
        quoted = [f"“{review['texto'].strip()}”" for review in reviews]
        width = quotes.width - 2 * pad_x
        count, heights = rows_that_fit(
            lambda i: 2 * pad_y + star_h + below + canvas.needed_height(quoted[i], width, size=smallest, max_lines=3),
            len(reviews),
            quotes,
            gap,
            3,
        )
        texts = []
        for review, text, card in zip(reviews, quoted, stack(quotes, heights, gap), strict=False):
            canvas.panel(card)
            inner = card.inset(pad_x, pad_y)
            stars(canvas, inner.x0, inner.y0, star_h, review["nota"])
            texts.append((text, Box(inner.x0, inner.y0 + star_h + below, inner.x1, inner.y1)))
        canvas.text_group(texts, size=QUOTE_SIZE, max_lines=3)
    return canvas


def compose_perguntas(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    canvas = ctx.canvas(size)
    body = frame(canvas, TITLES["perguntas"], ctx.ficha["nome"])
    items = ctx.ficha["perguntas"]
    gap, pad_x, pad_y, between = canvas.px(18), canvas.px(24), canvas.px(16), canvas.px(8)
    asked = [(f"P: {item['pergunta']}", f"R: {item['resposta']}") for item in items]
    width = body.width - 2 * pad_x
    question_size, answer_size = canvas.sizes(QUESTION_SIZE)[1], canvas.sizes(ANSWER_SIZE)[1]

    def question_height(i: int) -> float:
        return canvas.needed_height(asked[i][0], width, size=question_size, bold=True, max_lines=2)

    # A card holds its question in up to two lines and its answer in up to three.
    count, heights = rows_that_fit(
        lambda i: (
            2 * pad_y
            + question_height(i)
            + between
            + canvas.needed_height(asked[i][1], width, size=answer_size, max_lines=3)
        ),
        len(items),
        body,
        gap,
        3,
    )
    questions, answers = [], []
    for i, card in enumerate(stack(body, heights, gap)):
        canvas.panel(card)
        inner = card.inset(pad_x, pad_y)
        split = round(inner.y0 + question_height(i))
        questions.append((asked[i][0], Box(inner.x0, inner.y0, inner.x1, split)))
        answers.append((asked[i][1], Box(inner.x0, split + between, inner.x1, inner.y1)))
    canvas.text_group(questions, size=QUESTION_SIZE, bold=True, fill=style.NAVY, max_lines=2)
    canvas.text_group(answers, size=ANSWER_SIZE, max_lines=3)
    return canvas


COMPOSERS: dict[str, Callable[[Context, tuple[int, int], FotoAprovada | None], Canvas]] = {
    "principal": compose_principal,
    "angulo": compose_angulo,
    "destaques": compose_destaques,
    "medidas": compose_medidas,
    "conteudo": compose_conteudo,
    "garantia": compose_garantia,
    "avaliacoes": compose_avaliacoes,
    "perguntas": compose_perguntas,
}


def compose(kind: str, ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    return COMPOSERS[kind](ctx, size, foto)
