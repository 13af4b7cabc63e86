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
from graphql_api.geracao.render.text import Box, Canvas
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
        return Canvas(size, unit=style.unit(size) * self.scale)

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


def frame(canvas: Canvas, title: str, subtitle: str) -> Box:
    """Header band, bottom strip; returns the body box inside the margins."""
    width, height = canvas.size
    band = canvas.px(style.HEADER)
    margin = canvas.px(style.MARGIN)
    canvas.draw.rectangle([0, 0, width, band], fill=style.NAVY)
    canvas.draw.rectangle([0, height - canvas.px(style.ACCENT_STRIP), width, height], fill=style.ACCENT)
    inner = Box(margin, canvas.px(18), width - margin, band - canvas.px(14))
    title_box, subtitle_box = inner.split(0.6, vertical=True)
    canvas.text(title, title_box, fill=style.WHITE, size=style.TITLE_SIZE, bold=True, max_lines=1, valign="bottom")
    canvas.text(subtitle, subtitle_box, fill=(200, 214, 229), size=style.SUBTITLE_SIZE, max_lines=1, valign="middle")
    return Box(margin, band + margin * 2 // 3, width - margin, height - canvas.px(style.ACCENT_STRIP) - margin * 2 // 3)


def split_for_photo(canvas: Canvas, body: Box, share: float = 0.4) -> tuple[Box, Box]:
    """(photo box, content box): side by side on square and wide canvases, stacked on tall ones."""
    vertical = canvas.size[1] > canvas.size[0] * 1.1
    return body.split(share, canvas.px(style.GAP) * 2, vertical=vertical)


def rows_that_fit(total: int, box: Box, min_height: float, gap: float, limit: int) -> int:
    return max(1, min(total, limit, int((box.height + gap) // (min_height + gap))))


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
    gap = canvas.px(16)
    count = rows_that_fit(len(rows), list_box, canvas.px(118), gap, 6)
    shown = rows[:count]
    if len(rows) > count:
        shown[-1] = ("", f"e mais {len(rows) - count + 1} características")
    labels, values = [], []
    for (label, value), row in zip(shown, list_box.rows(count, gap), strict=False):
        canvas.panel(row)
        label_box, value_box = row.inset(canvas.px(22), canvas.px(12)).split(0.36, vertical=True)
        if label:
            labels.append((label, label_box))
        values.append((value, value_box))
    canvas.text_group(labels, fill=style.MUTED, size=style.LABEL_SIZE, bold=True, max_lines=1)
    canvas.text_group(values, size=style.BODY_SIZE)
    return canvas


def compose_medidas(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    canvas = ctx.canvas(size)
    body = frame(canvas, TITLES["medidas"], ctx.ficha["nome"])
    entries = dimension_entries(ctx.ficha)
    strip_items = [
        (label, entries[key]) for key, label in (("profundidade", "Profundidade"), ("peso", "Peso")) if key in entries
    ]
    if strip_items:
        body, strip = body.split(0.84, canvas.px(style.GAP), vertical=True)
        canvas.panel(strip)
        inner = strip.inset(canvas.px(20), canvas.px(8))
        cells = inner.split(0.5, canvas.px(style.GAP), vertical=False) if len(strip_items) == 2 else (inner,)
        for (label, value), cell in zip(strip_items, cells, strict=False):
            canvas.text(
                f"{label}: {value}", cell, size=style.BODY_SIZE, bold=True, max_lines=2, valign="middle", align="center"
            )
    gutter_x = round(body.width * 0.26) if "altura" in entries else 0
    gutter_y = round(body.height * 0.16) if "largura" in entries else 0
    photo_box = Box(body.x0 + gutter_x, body.y0, body.x1, body.y1 - gutter_y)
    landed = product(ctx, canvas, photo_box.inset(canvas.px(8)))  # the arrows span the product's mask
    line = canvas.px(5)
    gap = canvas.px(22)
    if "largura" in entries:
        y = landed.y1 + gap
        arrow(canvas.draw, (landed.x0, y), (landed.x1, y), line)
        label_box = Box(photo_box.x0, y + gap // 2, photo_box.x1, body.y1)
        canvas.text(
            f"Largura {entries['largura']}",
            label_box,
            size=style.BODY_SIZE,
            bold=True,
            align="center",
            valign="middle",
            max_lines=2,
        )
    if "altura" in entries:
        x = landed.x0 - gap
        arrow(canvas.draw, (x, landed.y0), (x, landed.y1), line)
        label_box = Box(body.x0, landed.y0, x - gap // 2, landed.y1)
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
    gap = canvas.px(14)
    count = rows_that_fit(len(items), list_box, canvas.px(96), gap, 8)
    shown = [(f"{number(i['quantidade'])}×", i["item"]) for i in items[:count]]
    if len(items) > count:
        shown[-1] = ("+", f"mais {len(items) - count + 1} itens")
    badges, names = [], []
    for (quantity, item), row in zip(shown, list_box.rows(count, gap), strict=False):
        canvas.panel(row)
        badge_box, text_box = row.inset(canvas.px(12)).split(0.24, canvas.px(16), vertical=False)
        canvas.draw.rounded_rectangle(badge_box.as_tuple(), radius=canvas.px(14), fill=style.ACCENT)
        badges.append((quantity, badge_box))
        names.append((item, text_box))
    canvas.text_group(
        badges, fill=style.NAVY, size=style.BODY_SIZE, bold=True, max_lines=1, align="center", valign="middle"
    )
    canvas.text_group(names, size=style.BODY_SIZE, valign="middle")
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
        size=(60, 24),
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
    summary, quotes = body.split(0.38, canvas.px(style.GAP), vertical=True) if reviews else (body, None)
    facts = []
    if proof["total"]:
        facts.append(f"{number(proof['total'])} avaliações")
    if proof["vendidos"]:
        facts.append(f"{number(proof['vendidos'])} vendidos")
    if proof["media"] is not None:
        score_box, rest = summary.split(0.34, canvas.px(style.GAP), vertical=False)
        canvas.text(
            rating(proof["media"]),
            score_box,
            size=(150, 40),
            bold=True,
            fill=style.NAVY,
            align="center",
            valign="middle",
            max_lines=1,
        )
        stars_row, facts_box = rest.split(0.45, canvas.px(10), vertical=True)
        star_height = min(stars_row.height, round(rest.width / 5.9))
        stars(canvas, rest.x0, stars_row.y1 - star_height, star_height, float(proof["media"]))
    else:
        facts_box = summary
    if facts:
        canvas.text(" · ".join(facts), facts_box, size=style.BODY_SIZE, fill=style.MUTED, max_lines=2)
    if quotes is not None:
        gap = canvas.px(16)
        count = rows_that_fit(len(reviews), quotes, canvas.px(150), gap, 3)
        texts = []
        for review, card in zip(reviews, quotes.rows(count, gap), strict=False):
            canvas.panel(card)
            inner = card.inset(canvas.px(22), canvas.px(16))
            star_h = canvas.px(26)
            stars(canvas, inner.x0, inner.y0, star_h, review["nota"])
            texts.append(
                (f"“{review['texto'].strip()}”", Box(inner.x0, inner.y0 + star_h + canvas.px(8), inner.x1, inner.y1))
            )
        canvas.text_group(texts, size=(34, 22))
    return canvas


def compose_perguntas(ctx: Context, size: tuple[int, int], foto: FotoAprovada | None = None) -> Canvas:
    canvas = ctx.canvas(size)
    body = frame(canvas, TITLES["perguntas"], ctx.ficha["nome"])
    items = ctx.ficha["perguntas"]
    gap = canvas.px(18)
    count = rows_that_fit(len(items), body, canvas.px(220), gap, 3)
    questions, answers = [], []
    for item, card in zip(items, body.rows(count, gap), strict=False):
        canvas.panel(card)
        question, answer = card.inset(canvas.px(24), canvas.px(16)).split(0.4, canvas.px(8), vertical=True)
        questions.append((f"P: {item['pergunta']}", question))
        answers.append((f"R: {item['resposta']}", answer))
    canvas.text_group(questions, size=(36, 22), bold=True, fill=style.NAVY)
    canvas.text_group(answers, size=(32, 20))
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
