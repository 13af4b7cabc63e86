"""Synthetic product photos with known ground truth: one scene per kind of photo a seller sends.

Each scene is drawn as an integrator's photo would arrive (a JPEG with sensor noise and a cast
shadow, or a transparent PNG) together with the product's true mask (255 = product; the shadow,
reflections on the floor and any text or banner are not product). Used by tests/render/ and by
bench/qualidade_midia.py. Deterministic: the same name and size always give the same bytes."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@dataclass(frozen=True)
class Cenario:
    nome: str
    descricao: str
    dados: bytes  # the photo as sent: JPEG, or PNG for the transparent scene
    mascara: Image.Image  # L, 255 = product
    texto: bool = False  # text or a logo drawn over the photo
    separavel: bool = True  # false only for the control scene a classical method cannot split

    @property
    def imagem(self) -> Image.Image:
        return Image.open(io.BytesIO(self.dados))

    @property
    def lado_produto(self) -> int:
        """The product's long side in the photo's pixels (its true bounding box)."""
        box = self.mascara.getbbox()
        assert box is not None
        return max(box[2] - box[0], box[3] - box[1])


# -- products: an RGBA layer whose alpha is the true mask ----------------------------------------


def _cylinder_shade(t: np.ndarray, light: float = 0.3) -> np.ndarray:
    """Brightness across a cylinder (t from 0 to 1): dark edges, a highlight near `light`."""
    base = 0.45 + 0.55 * np.sin(np.pi * np.clip(t, 0, 1)) ** 0.7
    return base + 0.35 * np.exp(-(((t - light) / 0.05) ** 2))


def _garrafa(
    size: tuple[int, int],
    box: tuple[float, float, float, float],
    body,
    cap=(70, 72, 76),
    label=(245, 245, 240),
    chrome: bool = False,
) -> Image.Image:
    """A thermal bottle: cylindrical body, rounded cap, a label band (RGBA)."""
    width, height = size
    x0, y0, x1, y1 = box
    bw = x1 - x0
    layer = np.zeros((height, width, 4), np.float32)
    ys, xs = np.mgrid[0:height, 0:width]
    t = (xs - x0) / max(bw, 1)
    inside_body = (xs >= x0) & (xs < x1) & (ys >= y0 + bw * 0.25) & (ys < y1)
    # rounded shoulders: an ellipse joins the body to the cap
    shoulder = ((xs - (x0 + x1) / 2) / (bw / 2)) ** 2 + ((ys - (y0 + bw * 0.3)) / (bw * 0.18)) ** 2 <= 1
    inside_body |= shoulder & (ys >= y0 + bw * 0.1)
    shade = _cylinder_shade(t)
    if chrome:  # environment reflected as bands: near-white, near-black and the room's tones
        bands = 0.5 + 0.5 * np.sin(t * 19.0) * np.cos(t * 5.0)
        tone = 30 + 225 * bands
        rgb = np.stack([tone * 0.97, tone * 0.99, tone], axis=-1) * np.clip(shade, 0.6, 1.3)[..., None]
    else:
        rgb = np.array(body, np.float32)[None, None, :] * shade[..., None]
    rgb = np.clip(rgb, 0, 255)
    layer[inside_body, :3] = rgb[inside_body]
    layer[inside_body, 3] = 255
    label_rows = (ys >= y0 + (y1 - y0) * 0.45) & (ys < y0 + (y1 - y0) * 0.6) & inside_body
    layer[label_rows, :3] = np.array(label, np.float32) * np.clip(shade[label_rows, None], 0.7, 1.05)
    cap_box = (xs >= x0 + bw * 0.16) & (xs < x1 - bw * 0.16) & (ys >= y0) & (ys < y0 + bw * 0.22)
    layer[cap_box, :3] = (
        np.array(cap, np.float32)
        * np.clip(_cylinder_shade((xs[cap_box] - x0 - bw * 0.16) / (bw * 0.68)), 0.5, 1.2)[:, None]
    )
    layer[cap_box, 3] = 255
    return Image.fromarray(np.clip(layer, 0, 255).astype(np.uint8), "RGBA")


def _caixa(size: tuple[int, int], box: tuple[float, float, float, float], front, side, print_colour) -> Image.Image:
    """A product box seen from three quarters: a lit front, a darker side, a printed stripe."""
    width, height = size
    x0, y0, x1, y1 = box
    depth = (x1 - x0) * 0.22
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    fx1 = x1 - depth
    draw.polygon([(fx1, y0 + depth * 0.5), (x1, y0), (x1, y1 - depth * 0.5), (fx1, y1)], fill=tuple(side) + (255,))
    draw.polygon(
        [(x0, y0 + depth * 0.5), (x0 + depth, y0), (x1, y0), (fx1, y0 + depth * 0.5)],
        fill=tuple(min(255, int(c * 1.08)) for c in front) + (255,),
    )
    draw.rectangle([x0, y0 + depth * 0.5, fx1, y1], fill=tuple(front) + (255,))
    stripe_top = y0 + (y1 - y0) * 0.55
    draw.rectangle([x0, stripe_top, fx1, stripe_top + (y1 - y0) * 0.12], fill=tuple(print_colour) + (255,))
    draw.ellipse(
        [x0 + (fx1 - x0) * 0.3, y0 + (y1 - y0) * 0.18, x0 + (fx1 - x0) * 0.7, y0 + (y1 - y0) * 0.42],
        fill=tuple(print_colour) + (255,),
    )
    # a soft light gradient over the front, as a softbox gives
    arr = np.asarray(layer).astype(np.float32)
    ys, xs = np.mgrid[0:height, 0:width]
    light = 1.06 - 0.16 * np.clip((xs - x0) / max(fx1 - x0, 1), 0, 1)
    arr[..., :3] *= light[..., None]
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGBA")


def _caneca(size: tuple[int, int], box: tuple[float, float, float, float], body) -> Image.Image:
    """A mug with a handle: the hole inside the handle is background, not product."""
    width, height = size
    x0, y0, x1, y1 = box
    bw = (x1 - x0) * 0.72
    layer = np.zeros((height, width, 4), np.float32)
    ys, xs = np.mgrid[0:height, 0:width]
    inside = (xs >= x0) & (xs < x0 + bw) & (ys >= y0) & (ys < y1)
    shade = _cylinder_shade((xs - x0) / bw, light=0.35)
    layer[inside, :3] = (np.array(body, np.float32)[None, None, :] * shade[..., None])[inside]
    layer[inside, 3] = 255
    cx, cy = x0 + bw, (y0 + y1) / 2
    rx, ry = (x1 - x0) * 0.3, (y1 - y0) * 0.3
    ring = ((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2
    handle = (ring <= 1) & (ring >= 0.42) & (xs >= x0 + bw)
    layer[handle, :3] = np.array(body, np.float32) * 0.8
    layer[handle, 3] = 255
    return Image.fromarray(np.clip(layer, 0, 255).astype(np.uint8), "RGBA")


# -- backgrounds -----------------------------------------------------------------------------------


def _plain(size, colour, vignette: float = 0.04) -> np.ndarray:
    width, height = size
    ys, xs = np.mgrid[0:height, 0:width]
    r = np.hypot((xs - width / 2) / width, (ys - height / 2) / height)
    return np.array(colour, np.float32)[None, None, :] * (1 - vignette * r[..., None] * 2)


def _gradient(size, top, bottom) -> np.ndarray:
    width, height = size
    t = np.linspace(0, 1, height, dtype=np.float32)[:, None, None]
    row = np.array(top, np.float32) * (1 - t) + np.array(bottom, np.float32) * t
    return np.repeat(row, width, axis=1)


def _wood(size, horizon: float = 0.45) -> np.ndarray:
    """A beige wall over a wooden table top with grain and knots."""
    width, height = size
    rng = np.random.default_rng(7)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    wall = np.array((214, 206, 192), np.float32)[None, None, :] * (1 - 0.08 * ys[..., None] / height)
    warp = 14 * np.sin(xs / 170 + 3 * np.sin(ys / 260)) + 6 * np.sin(xs / 37)
    grain = 20 * np.sin((ys + warp) / 7.0) + 12 * np.sin((ys + warp) / 19.0)
    grain += rng.normal(0, 5, (height, width)).astype(np.float32)
    table = np.stack([150 + grain, 100 + grain * 0.7, 58 + grain * 0.4], axis=-1)
    table_rows = ys >= height * horizon
    out = np.where(table_rows[..., None], table, wall)
    edge = np.abs(ys - height * horizon) < 4
    out[edge] *= 0.55  # the table's edge
    return out


def _clutter(size, seed: int = 3, focus: bool = False) -> np.ndarray:
    """A shelf of out-of-focus things (in focus with `focus`): books, plants, jars in many colours."""
    width, height = size
    rng = np.random.default_rng(seed)
    img = Image.new("RGB", size, (196, 188, 176))
    draw = ImageDraw.Draw(img)
    for _ in range(90):
        colour = tuple(int(c) for c in rng.integers(20, 235, 3))
        x, y = rng.integers(0, width), rng.integers(0, height)
        w, h = rng.integers(width // 30, width // 6), rng.integers(height // 20, height // 4)
        if rng.random() < 0.5:
            draw.rectangle([x, y, x + w, y + h], fill=colour)
        else:
            draw.ellipse([x, y, x + w, y + h], fill=colour)
    if not focus:
        img = img.filter(ImageFilter.GaussianBlur(width / 400))  # depth of field: the product is in focus
    return np.asarray(img).astype(np.float32)


# -- composing a photo ---------------------------------------------------------------------------------


def _shadow(size, mask: Image.Image, strength: float, spread: float) -> np.ndarray:
    """A soft contact shadow under the product's base (multiplier per pixel, 1 = no shadow)."""
    box = mask.getbbox()
    assert box is not None
    x0, _, x1, y1 = box
    width = x1 - x0
    shadow = Image.new("L", size, 0)
    ImageDraw.Draw(shadow).ellipse(
        [x0 - width * 0.08, y1 - width * 0.06, x1 + width * 0.3, y1 + width * 0.12], fill=255
    )
    shadow = shadow.filter(ImageFilter.GaussianBlur(max(2.0, width * spread)))
    return 1 - strength * np.asarray(shadow).astype(np.float32)[..., None] / 255


def _compose(
    background: np.ndarray,
    product: Image.Image,
    *,
    shadow: float = 0.35,
    noise: float = 3.0,
    seed: int = 1,
    mirror: float = 0.0,
) -> tuple[np.ndarray, Image.Image]:
    size = product.size
    alpha = product.getchannel("A")
    out = background * _shadow(size, alpha, shadow, 0.06) if shadow else background.copy()
    if mirror:  # a glossy floor: a faded, flipped copy below the product (not product)
        box = alpha.getbbox()
        assert box is not None
        flipped = product.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        shifted = Image.new("RGBA", size, (0, 0, 0, 0))
        shifted.paste(flipped, (0, 2 * box[3] - size[1]))
        fa = np.asarray(shifted).astype(np.float32)
        fade = mirror * fa[..., 3:4] / 255
        out = out * (1 - fade) + fa[..., :3] * fade
    pa = np.asarray(product).astype(np.float32)
    a = pa[..., 3:4] / 255
    out = out * (1 - a) + pa[..., :3] * a
    rng = np.random.default_rng(seed)
    out = out + rng.normal(0, noise, out.shape).astype(np.float32)
    mask = alpha.point(lambda v: 255 if v >= 128 else 0)
    return np.clip(out, 0, 255).astype(np.uint8), mask


def _jpeg(pixels: np.ndarray, quality: int = 90) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(out, "JPEG", quality=quality)
    return out.getvalue()


def _overlay_text(pixels: np.ndarray) -> np.ndarray:
    """A promotional banner, a shop name and an @handle, as sellers paste over their photos."""
    img = Image.fromarray(pixels, "RGB")
    width, height = img.size
    draw = ImageDraw.Draw(img)
    big = ImageFont.truetype(FONT_BOLD, round(height * 0.06))
    small = ImageFont.truetype(FONT_BOLD, round(height * 0.035))
    draw.rectangle([0, 0, width * 0.62, height * 0.1], fill=(214, 30, 40))
    draw.text((width * 0.03, height * 0.018), "FRETE GRÁTIS -30%", font=big, fill=(255, 255, 255))
    draw.text((width * 0.04, height * 0.9), "Loja da Ana Utilidades", font=small, fill=(40, 40, 40))
    draw.text((width * 0.66, height * 0.93), "@lojadaana", font=small, fill=(90, 90, 90))
    return np.asarray(img)


# -- variants: the same kinds of photo, other details --------------------------------------------------


@dataclass(frozen=True)
class Variacao:
    """A variant of a scene, so that a method is not tuned to the thirteen photos themselves: another
    noise (and clutter) seed, product colour, position and size. `Variacao()` is the scene itself."""

    semente: int = 1
    cor: tuple[int, int, int] | None = None  # the product's main colour (the cap of the chrome bottle)
    dx: float = 0.0  # the product's centre moves by this share of the photo
    dy: float = 0.0
    escala: float = 1.0  # and its size by this factor

    def caixa(self, size, long_share: float, aspect: float, cx: float = 0.5, cy: float = 0.5):
        return _centred(size, long_share * self.escala, aspect, cx + self.dx, cy + self.dy)


ORIGINAL = Variacao()

# -- the scenes ------------------------------------------------------------------------------------------


def _centred(size, long_share: float, aspect: float, cx: float = 0.5, cy: float = 0.5):
    """A box `aspect` wide per unit of height whose long side is `long_share` of the frame."""
    width, height = size
    side = long_share * min(width, height)
    h = side if aspect <= 1 else side / aspect
    w = h * aspect
    return (width * cx - w / 2, height * cy - h / 2, width * cx + w / 2, height * cy + h / 2)


def branco(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    product = _garrafa(size, v.caixa(size, 0.72, 0.3), v.cor or (28, 92, 140))
    pixels, mask = _compose(_plain(size, (250, 250, 249)), product, seed=v.semente)
    return Cenario("branco", "garrafa azul em fundo branco de estúdio", _jpeg(pixels), mask)


def gradiente_claro(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    front = v.cor or (238, 120, 40)
    side_face = (180, 86, 28) if v.cor is None else tuple(round(c * 0.75) for c in v.cor)
    product = _caixa(size, v.caixa(size, 0.6, 0.8), front, side_face, (30, 60, 110))
    pixels, mask = _compose(_gradient(size, (244, 242, 238), (200, 198, 194)), product, shadow=0.45, seed=v.semente)
    return Cenario("gradiente_claro", "caixa laranja num fundo cinza-claro em degradê", _jpeg(pixels), mask)


def madeira(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    product = _caneca(size, v.caixa(size, 0.46, 1.2, cy=0.56), v.cor or (196, 40, 52))
    pixels, mask = _compose(_wood(size), product, shadow=0.5, seed=v.semente)
    return Cenario("madeira", "caneca vermelha sobre mesa de madeira, parede ao fundo", _jpeg(pixels), mask)


def bagunca(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    product = _garrafa(size, v.caixa(size, 0.7, 0.3), v.cor or (30, 150, 90), cap=(230, 230, 232))
    pixels, mask = _compose(_clutter(size, seed=2 + v.semente), product, shadow=0.3, seed=v.semente)
    return Cenario("bagunca", "garrafa verde diante de uma estante desfocada e colorida", _jpeg(pixels), mask)


def escuro_no_escuro(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    product = _garrafa(size, v.caixa(size, 0.72, 0.3), v.cor or (34, 34, 38), cap=(22, 22, 24), label=(52, 50, 48))
    pixels, mask = _compose(_plain(size, (36, 35, 37), vignette=0.06), product, shadow=0.25, noise=2.5, seed=v.semente)
    return Cenario("escuro_no_escuro", "garrafa preta fosca num fundo quase preto", _jpeg(pixels, 92), mask)


def claro_no_claro(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    product = _caneca(size, v.caixa(size, 0.55, 1.2), v.cor or (246, 245, 242))
    pixels, mask = _compose(_plain(size, (238, 238, 236)), product, shadow=0.2, seed=v.semente)
    return Cenario("claro_no_claro", "caneca branca num fundo branco-acinzentado", _jpeg(pixels), mask)


def png_transparente(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    front = v.cor or (60, 70, 160)
    side_face = (40, 46, 110) if v.cor is None else tuple(round(c * 0.7) for c in v.cor)
    product = _caixa(size, v.caixa(size, 0.64, 0.75), front, side_face, (250, 200, 40))
    out = io.BytesIO()
    product.save(out, "PNG")
    return Cenario(
        "png_transparente",
        "caixa azul em PNG com transparência",
        out.getvalue(),
        product.getchannel("A").point(lambda v: 255 if v >= 128 else 0),
    )


def pequeno_descentrado(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    product = _garrafa(size, v.caixa(size, 0.24, 0.3, cx=0.3, cy=0.62), v.cor or (150, 40, 120))
    pixels, mask = _compose(_plain(size, (248, 248, 246)), product, seed=v.semente)
    return Cenario("pequeno_descentrado", "garrafa pequena fora do centro, fundo branco", _jpeg(pixels), mask)


def retrato(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (round(side * 0.75), side)
    product = _garrafa(size, v.caixa(size, 0.78, 0.28), v.cor or (200, 120, 30))
    pixels, mask = _compose(_plain(size, (246, 246, 244)), product, seed=v.semente)
    return Cenario("retrato", "garrafa âmbar em foto vertical 3:4", _jpeg(pixels), mask)


def texto_sobreposto(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    product = _garrafa(size, v.caixa(size, 0.62, 0.3, cy=0.52), v.cor or (28, 92, 140))
    pixels, mask = _compose(_plain(size, (250, 250, 249)), product, seed=v.semente)
    return Cenario(
        "texto_sobreposto",
        "garrafa com faixa FRETE GRÁTIS, nome da loja e @perfil",
        _jpeg(_overlay_text(pixels)),
        mask,
        texto=True,
    )


def reflexivo(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    product = _garrafa(size, v.caixa(size, 0.62, 0.3, cy=0.45), None, cap=v.cor or (20, 20, 22), chrome=True)
    pixels, mask = _compose(_plain(size, (242, 242, 242)), product, shadow=0.2, mirror=0.25, seed=v.semente)
    return Cenario("reflexivo", "garrafa cromada com reflexos e o reflexo no piso brilhante", _jpeg(pixels), mask)


def tocando_a_borda(side: int, v: Variacao = ORIGINAL) -> Cenario:
    size = (side, side)
    width, height = size
    front = v.cor or (46, 140, 200)
    side_face = (30, 96, 140) if v.cor is None else tuple(round(c * 0.7) for c in v.cor)
    dx, dy = min(v.dx, 0.06), max(v.dy, -0.08)  # still cut by the left and bottom edges
    product = _caixa(
        size,
        (-width * (0.08 - dx), height * (0.12 + dy), width * (0.7 + dx), height * (1.1 + dy)),
        front,
        side_face,
        (250, 250, 250),
    )
    pixels, mask = _compose(_plain(size, (236, 236, 234)), product, shadow=0.0, seed=v.semente)
    return Cenario("tocando_a_borda", "caixa grande cortada pelas bordas esquerda e inferior", _jpeg(pixels), mask)


def inseparavel(side: int, v: Variacao = ORIGINAL) -> Cenario:
    """The control: a wood-grain box on the same wood, in the same light. No classical method
    (and few people at a glance) can tell where it ends; the service must say so."""
    size = (side, side)
    wood = _wood(size, horizon=0.0)
    box = v.caixa(size, 0.5, 1.0)
    product = Image.new("RGBA", size, (0, 0, 0, 0))
    region = Image.new("L", size, 0)
    ImageDraw.Draw(region).rectangle(box, fill=255)
    product = Image.fromarray(
        np.concatenate([np.clip(wood * 0.97, 0, 255).astype(np.uint8), np.asarray(region)[..., None]], axis=-1), "RGBA"
    )
    pixels, mask = _compose(wood, product, shadow=0.0, seed=v.semente)
    return Cenario(
        "inseparavel", "caixa de madeira sobre a mesma madeira (controle)", _jpeg(pixels), mask, separavel=False
    )


CENARIOS: dict[str, Callable[..., Cenario]] = {
    f.__name__: f
    for f in (
        branco,
        gradiente_claro,
        madeira,
        bagunca,
        escuro_no_escuro,
        claro_no_claro,
        png_transparente,
        pequeno_descentrado,
        retrato,
        texto_sobreposto,
        reflexivo,
        tocando_a_borda,
        inseparavel,
    )
}


# -- harder cases: where the service must say it cannot cut the product out (or just can) ------------


def bagunca_nitida(side: int, v: Variacao = ORIGINAL) -> Cenario:
    """The shelf of `bagunca`, in focus: every thing on it has an edge as sharp as the product's."""
    size = (side, side)
    product = _garrafa(size, v.caixa(size, 0.7, 0.3), v.cor or (30, 150, 90), cap=(230, 230, 232))
    pixels, mask = _compose(_clutter(size, seed=2 + v.semente, focus=True), product, shadow=0.3, seed=v.semente)
    return Cenario("bagunca_nitida", "garrafa diante de uma estante toda em foco", _jpeg(pixels), mask, separavel=False)


def toalha_xadrez(side: int, v: Variacao = ORIGINAL) -> Cenario:
    """A bottle on a red-and-white checked cloth: the checks are as sharp as the bottle."""
    size = (side, side)
    ys, xs = np.mgrid[0:side, 0:side]
    cell = side // 16
    red = ((xs // cell + ys // cell) % 2 == 1)[..., None]
    cloth = np.where(red, np.array([180, 40, 40], np.float32), np.array([235, 230, 225], np.float32))
    product = _garrafa(size, v.caixa(size, 0.6, 0.3), v.cor or (28, 92, 140))
    pixels, mask = _compose(cloth, product, shadow=0.3, seed=v.semente)
    return Cenario("toalha_xadrez", "garrafa sobre toalha xadrez", _jpeg(pixels), mask, separavel=False)


def desfocado(side: int, v: Variacao = ORIGINAL) -> Cenario:
    """The bottle of `branco`, out of focus: no photo for a main image."""
    size = (side, side)
    product = _garrafa(size, v.caixa(size, 0.72, 0.3), v.cor or (28, 92, 140))
    product = product.filter(ImageFilter.GaussianBlur(side / 250))
    pixels, mask = _compose(_plain(size, (250, 250, 249)), product, seed=v.semente)
    return Cenario("desfocado", "garrafa fora de foco em fundo branco", _jpeg(pixels), mask, separavel=False)


def sombra_dura(side: int, v: Variacao = ORIGINAL) -> Cenario:
    """A flash's hard shadow cast on the floor: its edge is as sharp as the product's."""
    size = (side, side)
    product = _garrafa(size, v.caixa(size, 0.55, 0.3, cx=0.38, cy=0.42), v.cor or (28, 92, 140))
    alpha = np.asarray(product.getchannel("A")) > 127
    base = int(np.nonzero(alpha.any(axis=1))[0].max())
    ys, xs = np.mgrid[0:side, 0:side]
    back = (ys - base) / 0.35  # a point on the floor maps back up the product's height
    source_y = np.clip(np.round(base - back).astype(int), 0, side - 1)
    source_x = np.clip(np.round(xs - back * 0.9).astype(int), 0, side - 1)
    shadow = (ys >= base) & alpha[source_y, source_x]
    floor = _plain(size, (245, 245, 243)) * (1 - 0.45 * shadow[..., None])
    pixels, mask = _compose(floor, product, shadow=0.0, seed=v.semente)
    return Cenario("sombra_dura", "garrafa com a sombra dura de um flash", _jpeg(pixels), mask, separavel=False)


def dois_produtos(side: int, v: Variacao = ORIGINAL) -> Cenario:
    """A kit: a bottle and a mug apart, both product (the mask is not the largest part alone)."""
    size = (side, side)
    bottle = _garrafa(size, v.caixa(size, 0.6, 0.3, cx=0.33), v.cor or (28, 92, 140))
    mug = _caneca(size, v.caixa(size, 0.35, 1.2, cx=0.7, cy=0.62), (196, 40, 52))
    pixels, mask = _compose(_plain(size, (248, 248, 246)), Image.alpha_composite(bottle, mug), seed=v.semente)
    return Cenario("dois_produtos", "kit com garrafa e caneca separadas", _jpeg(pixels), mask)


def cinza_no_cinza(side: int, v: Variacao = ORIGINAL) -> Cenario:
    """A grey box two levels lighter than its grey backdrop: faint, but its edges are all there."""
    size = (side, side)
    grey = v.cor or (212, 212, 210)
    product = _caixa(size, v.caixa(size, 0.6, 0.8), grey, tuple(c - 6 for c in grey), tuple(c - 3 for c in grey))
    pixels, mask = _compose(_plain(size, (210, 210, 208)), product, shadow=0.15, seed=v.semente)
    return Cenario("cinza_no_cinza", "caixa cinza num fundo cinza quase igual", _jpeg(pixels), mask)


DIFICEIS: dict[str, Callable[..., Cenario]] = {
    f.__name__: f for f in (bagunca_nitida, toalha_xadrez, desfocado, sombra_dura, dois_produtos, cinza_no_cinza)
}


# two other colours per scene, keeping its kind (dark stays dark, light stays light)
_CORES: dict[str, tuple[tuple[int, int, int] | None, tuple[int, int, int] | None]] = {
    "branco": ((200, 40, 40), (60, 60, 64)),
    "gradiente_claro": ((40, 150, 90), (220, 200, 60)),
    "madeira": ((30, 80, 160), (240, 240, 235)),
    "bagunca": ((200, 60, 40), (60, 60, 180)),
    "escuro_no_escuro": ((24, 24, 28), (46, 44, 44)),
    "claro_no_claro": ((250, 250, 250), (236, 232, 226)),
    "png_transparente": ((200, 60, 60), (40, 120, 60)),
    "pequeno_descentrado": ((28, 92, 140), (220, 120, 30)),
    "retrato": ((120, 40, 160), (40, 140, 140)),
    "texto_sobreposto": ((200, 40, 40), (40, 120, 60)),
    "reflexivo": ((150, 30, 30), None),
    "tocando_a_borda": ((200, 80, 40), (90, 90, 100)),
    "inseparavel": (None, None),
    "bagunca_nitida": ((200, 60, 40), (60, 60, 180)),
    "toalha_xadrez": ((30, 150, 90), (60, 60, 64)),
    "desfocado": ((200, 40, 40), (60, 60, 64)),
    "sombra_dura": ((200, 40, 40), (40, 120, 60)),
    "dois_produtos": ((120, 40, 160), (200, 120, 30)),
    "cinza_no_cinza": ((214, 214, 212), (216, 216, 214)),
}


def cenario(nome: str, side: int = 1600, variacao: Variacao = ORIGINAL) -> Cenario:
    return (CENARIOS.get(nome) or DIFICEIS[nome])(side, variacao)


def variantes(nome: str) -> list[Variacao]:
    """Three variants of a scene: another noise; and two with another colour, place and size."""
    first, second = _CORES[nome]
    return [
        Variacao(semente=2),
        Variacao(semente=3, cor=first, dx=0.05, dy=-0.03, escala=0.9),
        Variacao(semente=4, cor=second, dx=-0.06, dy=0.02, escala=1.1),
    ]


def iou(a: Image.Image, b: Image.Image) -> float:
    """Intersection over union of two masks (L, product > 127), compared at `b`'s size."""
    if a.size != b.size:
        a = a.resize(b.size, Image.Resampling.BILINEAR)
    x, y = np.asarray(a) > 127, np.asarray(b) > 127
    union = np.logical_or(x, y).sum()
    return float(np.logical_and(x, y).sum() / union) if union else 1.0
