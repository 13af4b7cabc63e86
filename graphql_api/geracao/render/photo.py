"""Product photos: loading, finding the product's mask, and drawing the product cut out.

The mask comes from graphql_api.midia.recorte (the service the quality check trusts too), with its
confidence. A separable photo keeps its mask and the product's box, so every image frames,
shadows and measures the product itself, never the photo's backdrop or its own cast shadow: drawn
through the mask, the product sits on white (or on any card) with nothing of its background. A
photo whose product cannot be told apart is kept whole, and `notes` says so in plain Portuguese."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageChops, ImageFilter, ImageOps

from graphql_api.geracao.render import observacoes, style
from graphql_api.geracao.render.text import Box
from graphql_api.midia import enquadramento
from graphql_api.midia.recorte import Recorte, recortar

_ALPHA_MODES = ("RGBA", "LA", "PA")
_EDGE_PAD = 0.004  # kept around a trimmed product's box (share of the photo's side): the soft edge
SHADOW_COLOUR = (60, 62, 66)
SHADOW_OPACITY = 0.4  # of the blurred footprint: about half shows past the base, a subtle grey
SHADOW_DROP = 0.012  # how far below the product the shadow is dropped, as a share of the canvas side
SHADOW_BLUR = 0.008  # its Gaussian radius, as a share of the canvas side


@dataclass(frozen=True, slots=True)
class Placement:
    """A scale and an offset: where one image's pixels land on another."""

    scale: float
    x: float
    y: float

    def map(self, box: Box) -> Box:
        return Box(
            round(self.x + box.x0 * self.scale),
            round(self.y + box.y0 * self.scale),
            round(self.x + box.x1 * self.scale),
            round(self.y + box.y1 * self.scale),
        )

    def then(self, other: Placement) -> Placement:
        """This placement followed by `other`."""
        return Placement(self.scale * other.scale, other.x + self.x * other.scale, other.y + self.y * other.scale)


@dataclass(frozen=True, slots=True)
class PreparedPhoto:
    image: Image.Image  # RGB: the photo (trimmed around the product when its backdrop is plain)
    mask: Image.Image | None  # L, image's size, 255 = product; None when the product is not separable
    caixa: Box  # the product's box in `image`: its mask's box, or the whole image when kept whole
    confianca: float  # the recorte's own confidence
    lado_produto: int  # the product's long side in the photo as sent, in its own pixels
    fundo_uniforme: bool  # a plain backdrop (or transparency), as opposed to a scene
    origem: Placement  # where the photo as sent lands in `image` (scaled down, trimmed)
    notes: tuple[str, ...] = ()  # what this photo cannot give, for the seller

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    @property
    def separavel(self) -> bool:
        return self.mask is not None

    @property
    def ampliacao(self) -> float:
        """How much the product is enlarged on a production main image (1.0 = not at all)."""
        return enquadramento.ampliacao(self.lado_produto)


def _open(path: Path | str, max_side: int) -> tuple[Image.Image, tuple[int, int]]:
    """The photo upright, at most `max_side` on its longer side, transparency kept (RGB or RGBA);
    and its size as sent (upright)."""
    with Image.open(path) as src:
        orientation = src.getexif().get(0x0112, 1)
        original = src.size[::-1] if orientation in (5, 6, 7, 8) else src.size
        src.draft("RGB", (max_side, max_side))  # JPEG: decode at a reduced scale, much faster
        # exif_transpose copies the image: only pay for it when the camera says it is rotated
        img = ImageOps.exif_transpose(src) if orientation != 1 else src
        img.load()
    if img.mode in _ALPHA_MODES or (img.mode == "P" and "transparency" in img.info):
        img = img.convert("RGBA")
    elif img.mode != "RGB":
        img = img.convert("RGB")
    if max(img.size) > max_side:
        img.thumbnail((max_side, max_side), Image.Resampling.LANCZOS, reducing_gap=2.0)
    return img, original


def _flatten(img: Image.Image) -> Image.Image:
    if img.mode != "RGBA":
        return img
    flat = Image.new("RGB", img.size, style.WHITE)
    flat.paste(img, mask=img.getchannel("A"))
    return flat


def load(path: Path | str, max_side: int) -> Image.Image:
    """RGB at most `max_side` on its longer side, upright, transparency flattened on white."""
    return _flatten(_open(path, max_side)[0])


def cut_out(img: Image.Image) -> tuple[Recorte, Image.Image | None]:
    """recortar() on the photo, and the product's mask at the photo's size when the product is
    separable (else None). recortar cuts every photo at enquadramento.LADO_RECORTE, whatever size
    it comes at (a test render's half size, an edit's source): the verdict is the check's."""
    recorte = recortar(img)
    if not recorte.separavel or recorte.mascara is None:
        return recorte, None
    mask = recorte.mascara
    return recorte, mask if mask.size == img.size else mask.resize(img.size, Image.Resampling.BILINEAR)


def _edge(mask: Image.Image) -> Image.Image:
    """The mask to draw through: edge pixels mix product and backdrop, so the edge is pulled in
    by a pixel (a dark backdrop leaves no ring on white) and softened (no jaggies)."""
    pulled = cv2.erode(np.asarray(mask), np.ones((3, 3), np.uint8))
    return Image.fromarray(cv2.GaussianBlur(pulled, (0, 0), 0.7), "L")


def _box(mask: Image.Image) -> tuple[int, int, int, int] | None:
    """The product's box: where the mask is at least half on."""
    return mask.point(lambda v: 255 if v >= 128 else 0).getbbox()


def on_white(img: Image.Image, mask: Image.Image) -> Image.Image:
    """The product through its mask onto pure white (RGB, the image's size)."""
    return Image.composite(_flatten(img), Image.new("RGB", img.size, style.WHITE), _edge(mask))


def _plain_backdrop(img: Image.Image) -> bool:
    """Whether the photo's border is one tone (a backdrop), not a scene. Transparency counts."""
    if img.mode == "RGBA" and np.asarray(img.getchannel("A")).min() < 128:
        return True
    thumb = img.reduce(max(1, min(img.size) // 96)).resize((48, 48), Image.Resampling.BOX)
    small = np.asarray(thumb.convert("RGB")).astype(np.int16)
    border = np.concatenate([small[0], small[-1], small[1:-1, 0], small[1:-1, -1]])
    close = np.max(np.abs(border - np.median(border, axis=0)), axis=1) <= 12  # JPEG noise, a vignette
    return bool(close.mean() >= 0.9)


def prepare(path: Path | str, max_side: int) -> PreparedPhoto:
    """Load (transparency kept for the recorte) and find the product's mask. A product on a plain
    backdrop is trimmed around; a scene is kept whole (videos show it around the product); a
    photo that cannot be cut out is kept whole, with its note."""
    img, original = _open(path, max_side)
    recorte, mask = cut_out(img)
    plain = _plain_backdrop(img)
    origem = Placement(img.width / original[0], 0, 0)
    box = _box(mask) if mask is not None else None
    if mask is None or box is None:
        note = observacoes.fundo_mantido(recorte.mascara is not None, recorte.causa)
        flat = _flatten(img)
        return PreparedPhoto(
            flat, None, Box(0, 0, *flat.size), recorte.confianca, max(original), plain, origem, (note,)
        )
    caixa = Box(*box)
    lado = round(max(caixa.width, caixa.height) / origem.scale)
    # Nothing faint outside the product's box is drawn (a table edge's trail in the feather): the
    # box is what is framed, so a main image's margin stays pure white whatever the mask holds.
    pad = max(2, round(max(img.size) * _EDGE_PAD))
    keep = Image.new("L", mask.size, 0)
    keep.paste(255, (max(0, box[0] - pad), max(0, box[1] - pad), box[2] + pad, box[3] + pad))
    mask = ImageChops.darker(mask, keep)
    if plain:
        x0, y0 = max(0, box[0] - pad), max(0, box[1] - pad)
        crop = (x0, y0, min(img.width, box[2] + pad), min(img.height, box[3] + pad))
        img, mask = img.crop(crop), mask.crop(crop)
        caixa = Box(box[0] - x0, box[1] - y0, box[2] - x0, box[3] - y0)
        origem = Placement(origem.scale, -x0, -y0)
    return PreparedPhoto(_flatten(img), _edge(mask), caixa, recorte.confianca, lado, plain, origem)


def in_memory(img: Image.Image, mask: Image.Image | None = None) -> PreparedPhoto:
    """An RGB image already at hand (an edit's), cut out through `mask` when one is given."""
    box = _box(mask) if mask is not None else None
    if mask is None or box is None:
        return PreparedPhoto(img, None, Box(0, 0, *img.size), 0.0, max(img.size), False, Placement(1, 0, 0))
    caixa = Box(*box)
    return PreparedPhoto(img, _edge(mask), caixa, 1.0, max(caixa.width, caixa.height), False, Placement(1, 0, 0))


# -- drawing ----------------------------------------------------------------------------------------


def fit(photo: PreparedPhoto, box: Box) -> Placement:
    """The product's box (the whole photo when kept whole) as large as fits in `box`, centred."""
    caixa = photo.caixa
    scale = min(box.width / caixa.width, box.height / caixa.height)
    x = (box.x0 + box.x1) / 2 - (caixa.x0 + caixa.x1) / 2 * scale
    y = (box.y0 + box.y1) / 2 - (caixa.y0 + caixa.y1) / 2 * scale
    return Placement(scale, x, y)


def draw(canvas: Image.Image, photo: PreparedPhoto, at: Placement, *, cut: bool = True) -> Box:
    """Draw the photo at `at` and return where the product's box landed. With `cut` a separable
    product is drawn through its mask (nothing of its backdrop); otherwise the photo as it is.
    Only the part that lands on the canvas is resized."""
    width, height = photo.size
    source = (
        max(0, math.floor(-at.x / at.scale)),
        max(0, math.floor(-at.y / at.scale)),
        min(width, math.ceil((canvas.width - at.x) / at.scale)),
        min(height, math.ceil((canvas.height - at.y) / at.scale)),
    )
    x0, y0 = round(at.x + source[0] * at.scale), round(at.y + source[1] * at.scale)
    size = (
        max(1, round(at.x + source[2] * at.scale) - x0),
        max(1, round(at.y + source[3] * at.scale) - y0),
    )
    if source[2] > source[0] and source[3] > source[1]:
        resized = photo.image.resize(size, Image.Resampling.LANCZOS, box=source, reducing_gap=2.0)
        if cut and photo.mask is not None:
            canvas.paste(resized, (x0, y0), photo.mask.resize(size, Image.Resampling.BILINEAR, box=source))
        else:
            canvas.paste(resized, (x0, y0))
    return at.map(photo.caixa)


def paste_contained(canvas: Image.Image, photo: PreparedPhoto, box: Box) -> Box:
    """The product (the whole photo when kept whole) as large as fits in `box`, centred; returns
    the product's box as it landed."""
    return draw(canvas, photo, fit(photo, box))


def contact_shadow(canvas: Image.Image, photo: PreparedPhoto, landed: Box) -> None:
    """A soft shadow under a cut-out product, drawn from its mask: the mask's lower quarter,
    fading in towards the base, dropped a little and blurred. It follows the product's own lower
    contour (a box seen in perspective, a mug's handle) and seats it on white, where the photo's
    own shadow was left out with the backdrop. Draw it before the product."""
    if photo.mask is None or landed.width < 2 or landed.height < 2:
        return
    side = min(canvas.size)
    caixa = photo.caixa
    part = max(1, caixa.height // 4)
    height = max(1, round(landed.height * part / caixa.height))
    footprint = photo.mask.crop((caixa.x0, caixa.y1 - part, caixa.x1, caixa.y1))
    footprint = footprint.resize((landed.width, height), Image.Resampling.BILINEAR)
    fade = Image.linear_gradient("L").resize((landed.width, height), Image.Resampling.BILINEAR)
    blur = max(1.0, side * SHADOW_BLUR)
    pad = math.ceil(blur * 3)
    layer = Image.new("L", (landed.width + 2 * pad, height + 2 * pad), 0)
    layer.paste(ImageChops.multiply(footprint, fade), (pad, pad))
    layer = layer.filter(ImageFilter.GaussianBlur(blur)).point(lambda v: round(v * SHADOW_OPACITY))
    drop = max(1, round(side * SHADOW_DROP))
    canvas.paste(SHADOW_COLOUR, (landed.x0 - pad, landed.y1 - height + drop - pad), layer)


def framed_cover(photo: PreparedPhoto, size: tuple[int, int], area: Box, margin: float) -> Placement | None:
    """The photo covering a canvas of `size` with its product's box (grown by `margin` of its
    size on each side) inside `area`, as little enlarged as that allows; None when no placement
    can (the product too large, or too close to the photo's edge, for that frame)."""
    caixa = photo.caixa
    grow_x, grow_y = caixa.width * margin, caixa.height * margin
    axes = (  # per axis: the photo's extent, the canvas's, the kept span and the area's span
        (photo.size[0], size[0], max(0.0, caixa.x0 - grow_x), min(photo.size[0], caixa.x1 + grow_x), area.x0, area.x1),
        (photo.size[1], size[1], max(0.0, caixa.y0 - grow_y), min(photo.size[1], caixa.y1 + grow_y), area.y0, area.y1),
    )
    # Scale s and offset o, per axis: o <= 0 and o + s*extent >= side (cover), o + s*k0 >= a0 and
    # o + s*k1 <= a1 (the product inside the area). Each bounds s from below or above.
    low, high = 0.0, math.inf
    for extent, side, k0, k1, a0, a1 in axes:
        low = max(low, side / extent, a0 / k0 if k0 > 0 else 0.0)
        if extent > k1:
            low = max(low, (side - a1) / (extent - k1))
        if (k0 <= 0 < a0) or (k1 >= extent and side > a1):
            return None  # the product touches the photo's edge where the area does not reach the frame's
        high = min(high, (a1 - a0) / (k1 - k0))
    if low > high:
        return None
    offsets = []
    for extent, side, k0, k1, a0, a1 in axes:
        lowest, highest = max(side - low * extent, a0 - low * k0), min(0.0, a1 - low * k1)
        centred = (a0 + a1) / 2 - (k0 + k1) / 2 * low  # the product in the middle of the area
        offsets.append(min(max(centred, lowest), highest))
    return Placement(low, offsets[0], offsets[1])
