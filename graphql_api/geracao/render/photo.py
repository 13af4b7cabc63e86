"""Product photos: loading, whitening a uniform background, trimming, and fitting into a box.

What "white background" does (and does not do): the colour of the photo's border is measured;
when the border is uniform (a studio backdrop, a table top in one tone, a near-white sweep), the
pixels close to that colour AND connected to the border become pure white, with a one-pixel
feathered edge. Enclosed gaps (inside a mug handle) keep their tone, and a busy or gradient
background (a lifestyle photo) is left as it is: the photo is then placed whole, without
trimming. This is colour keying with a connectivity check, not subject segmentation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from PIL import Image, ImageChops, ImageFilter, ImageOps

from graphql_api.geracao.render import style
from graphql_api.geracao.render.text import Box

DEFAULT_TOLERANCE = 24  # max channel difference (0–255) still counted as background
_UNIFORM_SHARE = 0.9  # share of border samples within _UNIFORM_SPREAD of the border colour
_UNIFORM_SPREAD = 12  # JPEG noise and a soft vignette stay under this; wood grain or a room do not
_FLOOD_SIDE = 400  # connectivity is computed on a thumbnail this big
_RUN = re.compile(rb"\xff+")


@dataclass(frozen=True, slots=True)
class PreparedPhoto:
    image: Image.Image  # RGB, cropped to the product when the background was found
    mask: Image.Image | None  # L, 255 = product; None when the background was left as is
    whitened: bool

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size


def load(path: Path | str, max_side: int) -> Image.Image:
    """RGB at most `max_side` on its longer side, upright, transparency flattened on white."""
    with Image.open(path) as src:
        src.draft("RGB", (max_side, max_side))  # JPEG: decode at a reduced scale, much faster
        # exif_transpose copies the image: only pay for it when the camera says it is rotated
        img = ImageOps.exif_transpose(src) if src.getexif().get(0x0112, 1) != 1 else src
        img.load()
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        img = Image.new("RGB", rgba.size, style.WHITE)
        img.paste(rgba, mask=rgba.getchannel("A"))
    elif img.mode != "RGB":
        img = img.convert("RGB")
    if max(img.size) > max_side:
        img.thumbnail((max_side, max_side), Image.Resampling.LANCZOS, reducing_gap=2.0)
    return img


def border_colour(img: Image.Image) -> tuple[tuple[int, int, int], bool]:
    """The median colour of the image's border and whether the border is uniform in it."""
    small = img.resize((48, 48), Image.Resampling.BOX)
    # an RGB image's pixel is always a 3-tuple; Pillow types getpixel for every mode
    samples = [cast(tuple[int, int, int], small.getpixel((i, j))) for i in range(48) for j in (0, 47)]
    samples += [cast(tuple[int, int, int], small.getpixel((j, i))) for i in range(1, 47) for j in (0, 47)]
    r, g, b = (sorted(s[c] for s in samples)[len(samples) // 2] for c in range(3))
    median = (r, g, b)
    close = sum(1 for s in samples if max(abs(s[c] - median[c]) for c in range(3)) <= _UNIFORM_SPREAD)
    return median, close >= _UNIFORM_SHARE * len(samples)


def _difference(img: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """Per pixel, the largest channel difference from `colour` (L)."""
    r, g, b = ImageChops.difference(img, Image.new("RGB", img.size, colour)).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


def _runs_connected_to_border(data: bytes, width: int, height: int) -> bytearray:
    """4-connected flood fill from the border over 255-valued pixels, by runs: each row's runs are
    found with a regex (C speed) and joined to the overlapping runs of the row above with a
    union-find, so the Python work is per run, not per pixel."""
    parent: list[int] = []

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    rows: list[list[tuple[int, int, int]]] = []  # (start, end, run id) per row
    for y in range(height):
        row = []
        for match in _RUN.finditer(data, y * width, (y + 1) * width):
            start, end = match.start() - y * width, match.end() - y * width
            run = len(parent)
            parent.append(run)
            row.append((start, end, run))
        if y:
            above, i = rows[-1], 0
            for start, end, run in row:
                while i < len(above) and above[i][1] <= start:
                    i += 1
                j = i
                while j < len(above) and above[j][0] < end:
                    parent[find(above[j][2])] = find(run)
                    j += 1
        rows.append(row)
    border = {
        find(run)
        for y, row in enumerate(rows)
        for start, end, run in row
        if y in (0, height - 1) or start == 0 or end == width
    }
    out = bytearray(width * height)
    for y, row in enumerate(rows):
        for start, end, run in row:
            if find(run) in border:
                out[y * width + start : y * width + end] = b"\xff" * (end - start)
    return out


def _connected_to_border(candidate: Image.Image) -> Image.Image:
    """Of the candidate background (L, 255 = close to the border colour), the part connected to
    the border, computed on a thumbnail and scaled back (L, 255 = background)."""
    scale = _FLOOD_SIDE / max(candidate.size)
    small_size = (max(1, round(candidate.width * scale)), max(1, round(candidate.height * scale)))
    # A thumbnail pixel is background only if its whole block is: thin product parts survive.
    small = candidate.resize(small_size, Image.Resampling.BOX).point(lambda v: 255 if v >= 250 else 0)
    region = _runs_connected_to_border(small.tobytes(), *small.size)
    region_img = Image.frombytes("L", small.size, bytes(region)).filter(ImageFilter.MaxFilter(3))
    return region_img.resize(candidate.size, Image.Resampling.BILINEAR).point(lambda v: 255 if v > 0 else 0)


def background_mask(img: Image.Image, tolerance: int = DEFAULT_TOLERANCE) -> Image.Image | None:
    """L mask, 255 = uniform background connected to the border; None when the border is not
    uniform (nothing to key)."""
    colour, uniform = border_colour(img)
    if not uniform:
        return None
    candidate = _difference(img, colour).point(lambda v: 255 if v <= tolerance else 0)
    return ImageChops.darker(candidate, _connected_to_border(candidate))


def _key_white(img: Image.Image, background: Image.Image) -> tuple[Image.Image, Image.Image]:
    background = background.filter(ImageFilter.BoxBlur(1))  # feathered edge, no jaggies
    white = Image.new("RGB", img.size, style.WHITE)
    return Image.composite(white, img, background), ImageOps.invert(background)


def whiten(img: Image.Image, tolerance: int = DEFAULT_TOLERANCE) -> tuple[Image.Image, Image.Image | None]:
    """(image with its uniform background made white, product mask), or (img, None) when the
    border is not uniform."""
    background = background_mask(img, tolerance)
    if background is None:
        return img, None
    return _key_white(img, background)


def prepare(path: Path | str, max_side: int, tolerance: int = DEFAULT_TOLERANCE) -> PreparedPhoto:
    """Load, whiten a uniform background and crop to the product (with its mask)."""
    img = load(path, max_side)
    background = background_mask(img, tolerance)
    bbox = ImageOps.invert(background).getbbox() if background is not None else None
    if background is None or bbox is None:  # busy background, or nothing but background: as it is
        return PreparedPhoto(img, None, False)
    pad = 2  # keep the feathered edge
    bbox = (max(0, bbox[0] - pad), max(0, bbox[1] - pad), min(img.width, bbox[2] + pad), min(img.height, bbox[3] + pad))
    image, mask = _key_white(img.crop(bbox), background.crop(bbox))
    return PreparedPhoto(image, mask, True)


def contain_size(size: tuple[int, int], box: tuple[int, int]) -> tuple[int, int]:
    scale = min(box[0] / size[0], box[1] / size[1])
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


def paste_contained(canvas: Image.Image, photo: PreparedPhoto, box: Box) -> Box:
    """Draw the photo as large as fits in `box`, centred; returns where it landed. A whitened
    product is pasted through its mask, so it sits on any background without a white frame."""
    width, height = contain_size(photo.size, (box.width, box.height))
    x = box.x0 + (box.width - width) // 2
    y = box.y0 + (box.height - height) // 2
    resized = photo.image.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)
    if photo.mask is not None:
        canvas.paste(resized, (x, y), photo.mask.resize((width, height), Image.Resampling.BILINEAR))
    else:
        canvas.paste(resized, (x, y))
    return Box(x, y, x + width, y + height)


def cover(photo: PreparedPhoto, size: tuple[int, int]) -> Image.Image:
    """The photo filling `size` entirely (centre crop): lifestyle photos in videos."""
    return ImageOps.fit(photo.image, size, Image.Resampling.LANCZOS, centering=(0.5, 0.5))
