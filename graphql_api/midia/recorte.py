"""The product cut out from its photo: a mask and the service's own confidence in it.

Shared by the quality check (which warns before anything renders) and the renderers (which frame,
shadow and measure the product from the mask). Pure and CPU-bound: callers run it in a worker
process or a render thread.

    recorte = recortar(imagem)       # RGB, or RGBA whose transparency is the answer
    recorte.separavel                # confianca >= CONFIANCA_MINIMA
    recorte.mascara                  # L, the photo's size, 255 = product, soft edge
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

CONFIANCA_MINIMA = 0.9  # below it the mask is not trusted to make a main image

TRANSPARENCIA, FUNDO_UNIFORME = "transparencia", "fundo_uniforme"

_ALPHA_MODES = ("RGBA", "LA", "PA")
_MIN_TRANSPARENT = 0.01  # share of transparent pixels for the alpha to be the mask
_UNIFORM_SHARE = 0.9
_UNIFORM_SPREAD = 12
_TOLERANCE = 24


@dataclass(frozen=True, slots=True)
class Recorte:
    mascara: Image.Image | None  # L, 255 = product; None when nothing could be told apart
    confianca: float  # 0..1: how sure the service is that the mask is the product
    metodo: str  # how it was found: transparencia, fundo_uniforme, ...

    @property
    def separavel(self) -> bool:
        return self.mascara is not None and self.confianca >= CONFIANCA_MINIMA

    @property
    def caixa(self) -> tuple[int, int, int, int] | None:
        """The product's bounding box (mask above half), or None."""
        if self.mascara is None:
            return None
        return self.mascara.point(lambda v: 255 if v >= 128 else 0).getbbox()


def recortar(imagem: Image.Image) -> Recorte:
    """The product's mask in `imagem` (any mode; an alpha channel with transparency is used as is)."""
    if imagem.mode in _ALPHA_MODES or (imagem.mode == "P" and "transparency" in imagem.info):
        alpha = imagem.convert("RGBA").getchannel("A")
        transparent = np.count_nonzero(np.asarray(alpha) < 128) / max(1, alpha.width * alpha.height)
        if transparent >= _MIN_TRANSPARENT and alpha.getbbox() is not None:
            return Recorte(alpha, 1.0, TRANSPARENCIA)
    rgb = np.asarray(imagem.convert("RGB"))
    return _fundo_uniforme(rgb)


def _fundo_uniforme(rgb: np.ndarray) -> Recorte:
    """Colour keying from a uniform border, kept to what is connected to the border."""
    border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]]).astype(np.int16)
    colour = np.median(border, axis=0)
    close = np.max(np.abs(border - colour), axis=1) <= _UNIFORM_SPREAD
    if close.mean() < _UNIFORM_SHARE:
        return Recorte(None, 0.0, FUNDO_UNIFORME)
    candidate = (np.max(np.abs(rgb.astype(np.int16) - colour), axis=2) <= _TOLERANCE).astype(np.uint8)
    _, labels = cv2.connectedComponents(candidate, connectivity=4)
    edge_labels = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    edge_labels = edge_labels[edge_labels != 0]
    background = np.isin(labels, edge_labels) & (candidate == 1)
    mask = np.where(background, 0, 255).astype(np.uint8)
    if not mask.any():
        return Recorte(None, 0.0, FUNDO_UNIFORME)
    return Recorte(Image.fromarray(mask, "L"), 1.0, FUNDO_UNIFORME)
