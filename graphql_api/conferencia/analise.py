"""Measuring one photo: the format is sniffed from the bytes (never from headers), the declared
size is checked before anything is decoded (decompression bombs), JPEGs are decoded at reduced
scale, and the measures are taken on a working copy of at most 1000 pixels:

- sharpness: variance of the Laplacian over the most detailed eighth of an 8 × 8 grid, so a
  sharp product on a plain white background is not mistaken for a blurred photo;
- perceptual hash: a 256-bit difference hash (dHash) of a 17 × 16 grey thumbnail;
- the product cut out from its background (graphql_api/midia/recorte.py): the service's confidence,
  whether the main image can be made from it, and the product's long side in the photo's pixels;
- text drawn over the photo, read by OCR (graphql_api/midia/sobreposicao.py).

CPU-bound and blocking: callers run it in a worker process (vitrine.infra.cpu)."""

from __future__ import annotations

import io
import struct
from dataclasses import asdict, dataclass, fields

from PIL import ExifTags, Image, ImageFilter, ImageOps, ImageStat, UnidentifiedImageError

from graphql_api.conferencia.catalog import FORMATOS, MAX_FOTO_DECODIFICADA, MAX_FOTO_PIXELS, MIN_LADO, MIN_NITIDEZ
from graphql_api.midia import sobreposicao
from graphql_api.midia.enquadramento import LADO_RECORTE
from graphql_api.midia.recorte import CLASSICO, COMBINADO, recortar

WORKING_SIZE = LADO_RECORTE  # the cut-out is taken on this copy, as the renderers take it
# Raised whenever the measures change: a stored photo measured by an older analysis is measured
# again when a new check re-uses it (graphql_api/conferencia/fotos.py).
VERSAO = 2  # 2: the learned cut-out of scenes, at one working size, and why a cut is not trusted
MAX_TEXTO = 120  # characters of overlaid text kept with the measures
_LAPLACIAN = ImageFilter.Kernel((3, 3), [0, 1, 0, 1, -4, 1, 0, 1, 0], scale=1, offset=128)
_GRID = 8
_TOP_TILES = _GRID * _GRID // 8
_EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
_DECODE_ERRORS = (OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError, struct.error)
_ROTATED = (5, 6, 7, 8)  # EXIF orientations that swap width and height


class ImagemRecusada(Exception):
    """The bytes cannot be used as a photo: `codigo` is a motivo of the catalog."""

    def __init__(self, codigo: str, detalhe: str) -> None:
        super().__init__(detalhe)
        self.codigo = codigo
        self.detalhe = detalhe

    def __reduce__(self):  # rebuilt with its codigo when it comes back from a worker process
        return type(self), (self.codigo, self.detalhe)


@dataclass(frozen=True, slots=True)
class Medidas:
    """Stored with each photo (Foto.medidas). Fields added later have defaults that mean "not
    measured", so rows of older analyses still load and the rules skip what they lack."""

    formato: str
    largura: int  # as displayed (EXIF orientation applied)
    altura: int
    nitidez: float
    hash: str  # 64 hex digits
    versao: int = 0  # of the analysis (VERSAO)
    recorte_confianca: float | None = None  # 0..1, the cut-out's own confidence
    separavel: bool | None = None  # the main image can be made from this photo's cut-out
    recorte_causa: str | None = None  # why the cut-out is not trusted: a key of midia.recorte.CAUSAS
    lado_produto: int | None = None  # the product's long side in the photo's pixels (when separavel)
    texto_sobreposto: str | None = None  # read over the photo; "" none; None not read (OCR unavailable)

    @property
    def extensao(self) -> str:
        return _EXTENSIONS[self.formato]

    @property
    def menor_lado(self) -> int:
        return min(self.largura, self.altura)

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Medidas:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})  # fundo_claro: the version-0 border lightness


def distancia(hash_a: str, hash_b: str) -> int:
    """Bits that differ between two perceptual hashes."""
    return (int(hash_a, 16) ^ int(hash_b, 16)).bit_count()


def medir(data: bytes) -> Medidas:
    try:
        image = Image.open(io.BytesIO(data), formats=FORMATOS)
    except Image.DecompressionBombError:
        raise ImagemRecusada("FOTO_DIMENSOES_EXCESSIVAS", "A imagem declara dimensões enormes.") from None
    except UnidentifiedImageError:
        raise ImagemRecusada("FOTO_NAO_E_IMAGEM", f"Conteúdo não é JPEG, PNG nem WebP ({_sniff(data)}).") from None
    except _DECODE_ERRORS as exc:
        raise ImagemRecusada("FOTO_CORROMPIDA", f"Cabeçalho da imagem ilegível: {exc}") from None
    with image:
        largura, altura = image.size
        if largura * altura > MAX_FOTO_PIXELS:
            raise ImagemRecusada(
                "FOTO_DIMENSOES_EXCESSIVAS",
                f"{largura} × {altura} pixels; o máximo é {MAX_FOTO_PIXELS // 1_000_000} megapixels.",
            )
        formato = image.format
        assert formato is not None  # Image.open(formats=...) names the format it decoded
        try:
            if formato == "JPEG":
                image.draft("RGB", (WORKING_SIZE, WORKING_SIZE))  # the decoder scales by 1/2..1/8
            decoded = _decoded_bytes(image)
            if decoded > MAX_FOTO_DECODIFICADA:
                raise ImagemRecusada(
                    "FOTO_DIMENSOES_EXCESSIVAS",
                    f"{largura} × {altura} pixels em {image.mode} ocupariam {decoded // 1_000_000} MB decodificados; "
                    f"o máximo é {MAX_FOTO_DECODIFICADA // 1_000_000} MB.",
                )
            image.load()
            if image.getexif().get(ExifTags.Base.Orientation, 1) in _ROTATED:
                largura, altura = altura, largura  # shown rotated
            working = _upright_small(image)
        except _DECODE_ERRORS as exc:
            raise ImagemRecusada("FOTO_CORROMPIDA", f"A imagem não pôde ser decodificada: {exc}") from None
    rgb = _on_white(working)
    grey = rgb.convert("L")
    nitidez = round(_sharpness(grey), 1)
    # A photo refused for its blur or its size is refused whatever its cut: the learned model,
    # the costly part, only runs where its answer can change the verdict.
    recusada = nitidez < MIN_NITIDEZ or min(largura, altura) < MIN_LADO
    recorte = recortar(working, CLASSICO if recusada else COMBINADO)  # transparency, when there is some, is the answer
    caixa = recorte.caixa if recorte.separavel else None
    leitura = sobreposicao.ler(rgb, recorte)
    texto = leitura.texto if leitura.lida else None
    if texto and len(texto) > MAX_TEXTO:
        texto = texto[: MAX_TEXTO - 1] + "…"
    return Medidas(
        formato=formato,
        largura=largura,
        altura=altura,
        nitidez=nitidez,
        hash=_dhash(grey),
        versao=VERSAO,
        recorte_confianca=round(recorte.confianca, 3),
        separavel=recorte.separavel,
        recorte_causa=recorte.causa,
        # the working copy's box in the photo's own pixels: what the main image can enlarge
        lado_produto=round(max(caixa[2] - caixa[0], caixa[3] - caixa[1]) * largura / working.width) if caixa else None,
        texto_sobreposto=texto,
    )


MINIATURA_LADO = 320


def miniatura(data: bytes) -> bytes:
    """A small JPEG of a photo that `medir` accepted, for the portal's screening page."""
    with Image.open(io.BytesIO(data), formats=FORMATOS) as image:
        if image.format == "JPEG":
            image.draft("RGB", (MINIATURA_LADO, MINIATURA_LADO))
        small = _working_copy(image)
    small.thumbnail((MINIATURA_LADO, MINIATURA_LADO))
    out = io.BytesIO()
    small.save(out, "JPEG", quality=80)
    return out.getvalue()


_TO_RGBA = ("1", "P", "PA")  # converted to RGBA before shrinking (see _working_copy)
_SHRUNK_PREMULTIPLIED = ("RGBA", "LA", *_TO_RGBA)  # Pillow resizes alpha through a premultiplied copy


def _decoded_bytes(image: Image.Image) -> int:
    """Memory the decode and the working copy take, from the declared size and mode."""
    width, height = image.size  # after draft(): the reduced size the JPEG decoder will produce
    wide = image.mode in _TO_RGBA or image.mode.startswith("I") or image.mode == "F"
    per_pixel = 4 if wide else len(image.getbands())
    copies = 2 if image.mode in _SHRUNK_PREMULTIPLIED else 1
    return width * height * per_pixel * copies


def _sniff(data: bytes) -> str:
    head = data[:512].lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html")) or b"<html" in head:
        return "parece HTML"
    return "formato desconhecido" if data else "resposta vazia"


def _working_copy(image: Image.Image) -> Image.Image:
    """RGB, at most WORKING_SIZE pixels, upright, transparent areas on white."""
    return _on_white(_upright_small(image))


def _upright_small(image: Image.Image) -> Image.Image:
    """At most WORKING_SIZE pixels, upright; RGBA when the photo has an alpha channel, else RGB."""
    if image.mode in _TO_RGBA:
        image = image.convert("RGBA")  # palettes resize only by nearest neighbour
    elif image.mode.startswith("I") or image.mode == "F":
        image = image.convert("I").point(lambda v: v / 256).convert("L")  # 16-bit and float greys
    image.thumbnail((WORKING_SIZE, WORKING_SIZE))
    image = ImageOps.exif_transpose(image)  # after shrinking: it copies the image
    return image.convert("RGBA" if image.mode in ("RGBA", "LA", "La", "RGBa") else "RGB")


def _on_white(image: Image.Image) -> Image.Image:
    if image.mode != "RGBA":
        return image
    background = Image.new("RGBA", image.size, (255, 255, 255, 255))
    return Image.alpha_composite(background, image).convert("RGB")


def _sharpness(grey: Image.Image) -> float:
    laplacian = grey.filter(_LAPLACIAN)
    width, height = laplacian.size
    if width < 2 * _GRID + 4 or height < 2 * _GRID + 4:
        return ImageStat.Stat(laplacian).var[0]
    laplacian = laplacian.crop((2, 2, width - 2, height - 2))  # the kernel leaves the edge as is
    width, height = laplacian.size
    variances = sorted(
        (
            ImageStat.Stat(
                laplacian.crop(
                    (
                        col * width // _GRID,
                        row * height // _GRID,
                        (col + 1) * width // _GRID,
                        (row + 1) * height // _GRID,
                    )
                )
            ).var[0]
            for row in range(_GRID)
            for col in range(_GRID)
        ),
        reverse=True,
    )
    return sum(variances[:_TOP_TILES]) / _TOP_TILES


def _dhash(grey: Image.Image) -> str:
    small = grey.resize((17, 16), Image.Resampling.LANCZOS)
    pixels = small.tobytes()
    value = 0
    for row in range(16):
        line = pixels[row * 17 : (row + 1) * 17]
        for col in range(16):
            value = (value << 1) | (line[col] > line[col + 1])
    return f"{value:064x}"
