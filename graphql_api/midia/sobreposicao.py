"""Text and logos drawn over a product photo: promotional banners, a shop's name, an @handle, a
watermark. Read with Tesseract (Debian's tesseract-ocr, Portuguese and English) and judged against
the product's mask: a word outside the product, or crossing its edge, was put over the photo; a word
wholly on the product is printed on it (a label, the packaging) and is fine.

    leitura = ler(imagem, recortar(imagem))   # the same image, at most LADO_MAXIMO pixels
    leitura.sobreposto                        # enough overlaid letters to warn about
    leitura.texto                             # what was read over the photo, for the seller

Fast enough for every photo of a check: OpenCV finds the few text-like strips first (a photo with
none costs milliseconds and never starts Tesseract), and the strips are read in one Tesseract call,
stacked on one sheet, each turned dark-on-light (white letters on a red banner are the usual case).
Tesseract runs as a subprocess with a time limit, so no photo can hold the check. CPU-bound:
callers run it in a worker process."""

from __future__ import annotations

import logging
import os
import time
import unicodedata
from dataclasses import dataclass

import cv2
import numpy as np
import pytesseract
from PIL import Image

from graphql_api.midia.recorte import Recorte

log = logging.getLogger(__name__)

IDIOMAS = "por+eng"
LADO_MAXIMO = 1000  # the image is read at most this size (pixels)
TEMPO_MAXIMO = 15.0  # seconds Tesseract may take on one photo: bounds a pathological one, not a busy machine
MIN_CONFIANCA = 75  # Tesseract's confidence in a word (0-100)
MIN_CARACTERES = 4  # letters and digits read over the photo before it is an overlay
DENTRO_DO_PRODUTO = 0.9  # share of a word's box on the product for it to be printed on it
MARGEM_SEM_RECORTE = 0.15  # no trusted mask: words this close to an edge (share of the side) are overlays

_CONFIG = "--oem 1 --psm 11"  # LSTM only; sparse text: each stacked strip is read on its own
_EDGE_STRENGTH = 35  # morphological gradient that counts as a letter's edge (a faint watermark has ~50)
_MIN_STRIP_HEIGHT = 8
_MAX_STRIP_SHARE = 0.15  # of the image's height
_MIN_EDGE_FILL = 0.35  # letters make dense edges; a box's outline or wood grain does not
_MIN_LETTER_EDGES = 0.15  # share of edge pixels in a line of letters (0.24-0.38 seen; noise 0.12)
_MAX_SURROUND = 0.9  # edges around a line, against those in it (two close lines of a label: 0.8)
_MAX_SHEET_PIXELS = 2_000_000  # what one Tesseract call may be given, whatever the photo
_MAX_STRIPS = 40
_STRIP_HEIGHT = 48  # what a strip is scaled to on the sheet: Tesseract reads 20-40 px letters best
_SHEET_GAP = 24
_KEPT_SYMBOLS = set("%@#$-.,/:&+")  # part of overlay words: -30%, @loja, R$ 9,90


@dataclass(frozen=True, slots=True)
class Palavra:
    texto: str
    confianca: float  # 0-100
    caixa: tuple[int, int, int, int]  # x0, y0, x1, y1 in the pixels of the image read
    sobreposta: bool  # outside the product or crossing its edge


@dataclass(frozen=True, slots=True)
class Leitura:
    palavras: tuple[Palavra, ...]  # the real words read (noise filtered out)
    segundos: float  # time taken, strips and Tesseract included
    lida: bool  # False when Tesseract could not run or ran out of time

    @property
    def sobrepostas(self) -> tuple[Palavra, ...]:
        return tuple(p for p in self.palavras if p.sobreposta)

    @property
    def sobreposto(self) -> bool:
        return sum(_alnum(p.texto) for p in self.sobrepostas) >= MIN_CARACTERES

    @property
    def texto(self) -> str:
        """The overlaid words in reading order ("" when there is no overlay to warn about)."""
        return " ".join(p.texto for p in self.sobrepostas) if self.sobreposto else ""


def ler(imagem: Image.Image, recorte: Recorte | None = None) -> Leitura:
    """The words over `imagem` (any mode; `recorte` is of the same image, or None when unknown)."""
    started = time.perf_counter()
    rgb = imagem.convert("RGB")
    if max(rgb.size) > LADO_MAXIMO:
        rgb.thumbnail((LADO_MAXIMO, LADO_MAXIMO))
    grey = np.asarray(rgb.convert("L"))
    strips = _strips(grey)
    palavras: list[Palavra] = []
    lida = True
    if strips:
        produto = _product_region(recorte, rgb.size)
        try:
            lidas = _read(grey, strips, produto)
        except (RuntimeError, OSError, pytesseract.TesseractError) as exc:  # timeout, missing binary
            log.warning("OCR unavailable for a photo: %s", exc)
            lidas, lida = [], False
        palavras = [Palavra(texto, conf, caixa, _overlaid(caixa, produto, rgb.size)) for texto, conf, caixa in lidas]
    return Leitura(tuple(palavras), time.perf_counter() - started, lida)


def _strips(grey: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes (x, y, w, h) of text-like strips: dense letter edges joined along a line. Thin lines
    (a product's outline, wood grain) are opened away, so a word crossing the product's edge is not
    swallowed by the outline; pieces of one line are joined again afterwards."""
    height, width = grey.shape
    gradient = cv2.morphologyEx(grey, cv2.MORPH_GRADIENT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    edges = (gradient >= _EDGE_STRENGTH).astype(np.uint8)
    joined = cv2.morphologyEx(
        edges, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (max(3, width // 80), 1))
    )
    solid = cv2.morphologyEx(joined, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))
    count, _, stats, _ = cv2.connectedComponentsWithStats(solid, connectivity=8)
    seeds = [
        (x, y, w, h)
        for x, y, w, h, area in stats[1:count].tolist()
        if _MIN_STRIP_HEIGHT <= h <= height * _MAX_STRIP_SHARE and w >= 1.2 * h and area >= _MIN_EDGE_FILL * w * h
    ]
    lines = [box for box in _lines([_along_line(joined, box) for box in seeds]) if _stands_out(edges, box)]
    lines.sort(key=lambda b: b[2] * b[3], reverse=True)
    return sorted(lines[:_MAX_STRIPS], key=lambda b: (b[1], b[0]))


def _stands_out(edges: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """A line of letters is dense with edges and its ground above and below is not: texture (sensor
    noise, gravel, fabric) is as dense around a strip as in it, and would only keep Tesseract busy."""
    x, y, w, h = box
    inside = float(edges[y : y + h, x : x + w].mean())
    margin = max(2, h // 2)
    around = np.concatenate(
        [edges[max(0, y - margin) : y, x : x + w].ravel(), edges[y + h : y + h + margin, x : x + w].ravel()]
    )
    return inside >= _MIN_LETTER_EDGES and (around.size == 0 or float(around.mean()) < _MAX_SURROUND * inside)


def _along_line(joined: np.ndarray, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """A seed widened to the letters left and right of it on its line (gaps under a letter's height)."""
    x, y, w, h = box
    columns = np.any(joined[y : y + h], axis=0).astype(np.uint8).reshape(1, -1)
    columns = cv2.morphologyEx(columns, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (h, 1)))[0]
    start, end = x, x + w
    while start > 0 and columns[start - 1]:
        start -= 1
    while end < columns.size and columns[end]:
        end += 1
    return start, y, end - start, h


def _lines(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes on the same line (overlapping by half their height) and close along it, joined."""
    merged = sorted(boxes)
    changed = True
    while changed:
        changed = False
        for i, (x, y, w, h) in enumerate(merged):
            for j in range(i + 1, len(merged)):
                x2, y2, w2, h2 = merged[j]
                overlap = min(y + h, y2 + h2) - max(y, y2)
                gap = max(x2 - (x + w), x - (x2 + w2))
                if overlap >= 0.5 * min(h, h2) and gap <= 1.5 * max(h, h2):
                    x0, y0 = min(x, x2), min(y, y2)
                    merged[i] = (x0, y0, max(x + w, x2 + w2) - x0, max(y + h, y2 + h2) - y0)
                    del merged[j]
                    changed = True
                    break
            if changed:
                break
    return merged


def _read(
    grey: np.ndarray, strips: list[tuple[int, int, int, int]], produto: np.ndarray | None
) -> list[tuple[str, float, tuple[int, int, int, int]]]:
    """One Tesseract call over every strip stacked on a white sheet; boxes back in `grey`'s pixels."""
    height, width = grey.shape
    pieces = []
    for x, y, w, h in strips:
        pad = max(2, round(h * 0.35))  # a line's letters reach past its edges by a little
        x0, y0, x1, y1 = max(0, x - 2 * pad), max(0, y - pad), min(width, x + w + 2 * pad), min(height, y + h + pad)
        scale = min(4.0, max(0.5, _STRIP_HEIGHT / h))
        piece = grey[y0:y1, x0:x1]
        if produto is not None:
            piece = _one_side(piece, produto[y0:y1, x0:x1])
        piece = cv2.resize(_dark_on_light(piece), None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        pieces.append((piece, x0, y0, scale))
        if sum(p.size for p, *_ in pieces) > _MAX_SHEET_PIXELS:  # a page of text: its first lines say enough
            pieces.pop()
            break
    sheet_width = max(p.shape[1] for p, *_ in pieces) + 2 * _SHEET_GAP
    sheet_height = sum(p.shape[0] for p, *_ in pieces) + (len(pieces) + 1) * _SHEET_GAP
    sheet = np.full((sheet_height, sheet_width), 255, np.uint8)
    rows = []  # (top on the sheet, bottom, x0, y0, scale)
    top = _SHEET_GAP
    for piece, x0, y0, scale in pieces:
        sheet[top : top + piece.shape[0], _SHEET_GAP : _SHEET_GAP + piece.shape[1]] = piece
        rows.append((top, top + piece.shape[0], x0, y0, scale))
        top += piece.shape[0] + _SHEET_GAP
    # Tesseract's OpenMP threads only fight the other workers for the cores: one thread is faster
    # (0.36 s against 0.6 s a photo on two busy cores). Set here, in the worker process that reads.
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    data = pytesseract.image_to_data(
        Image.fromarray(sheet), lang=IDIOMAS, config=_CONFIG, timeout=TEMPO_MAXIMO, output_type=pytesseract.Output.DICT
    )
    words = []
    for text, conf, left, top_, w, h in zip(
        data["text"], data["conf"], data["left"], data["top"], data["width"], data["height"], strict=True
    ):
        text = _clean(text)
        if float(conf) < MIN_CONFIANCA or not _real_word(text):
            continue
        middle = top_ + h / 2
        row = next((r for r in rows if r[0] <= middle < r[1]), None)
        if row is None:
            continue
        row_top, _, x0, y0, scale = row
        box = (
            round(x0 + (left - _SHEET_GAP) / scale),
            round(y0 + (top_ - row_top) / scale),
            round(x0 + (left - _SHEET_GAP + w) / scale),
            round(y0 + (top_ - row_top + h) / scale),
        )
        words.append((text, round(float(conf), 1), box))
    return words


def _one_side(piece: np.ndarray, on_product: np.ndarray) -> np.ndarray:
    """A strip across the product's edge, its smaller side flattened to the other's median tone: a
    dark product beside light letters on the background (or the reverse) leaves Tesseract nothing
    to read, and a word across the edge is judged by its box anyway."""
    share = float(on_product.mean())
    if share in (0.0, 1.0):
        return piece
    keep = on_product if share >= 0.5 else ~on_product
    flattened = piece.copy()
    flattened[~keep] = np.uint8(np.median(piece[keep]))
    return flattened


def _dark_on_light(piece: np.ndarray) -> np.ndarray:
    """The strip with dark letters on a light ground and its contrast stretched: the letters are
    the minority of an Otsu split, so a mostly dark strip (white on a banner) is inverted."""
    threshold, split = cv2.threshold(piece, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if np.count_nonzero(split) < split.size / 2:
        piece = 255 - piece
    low, high = np.percentile(piece, (2, 98))
    if high - low < 1:
        return piece
    return np.clip((piece.astype(np.float32) - low) * (255 / (high - low)), 0, 255).astype(np.uint8)


def _clean(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip().strip("|'\"`“”‘’()[]{}<>_~;!?*"))


def _alnum(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


def _real_word(text: str) -> bool:
    """OCR noise is short, mostly symbols, or letters no language writes (no vowel, one letter repeated)."""
    letters = _alnum(text)
    if letters < 2 or letters < 0.5 * len(text) or any(not ch.isalnum() and ch not in _KEPT_SYMBOLS for ch in text):
        return False
    if any(ch.isdigit() for ch in text):
        return True
    plain = unicodedata.normalize("NFD", text.lower())
    return any(ch in "aeiouy" for ch in plain) and len({ch for ch in text.lower() if ch.isalpha()}) >= 2


def _product_region(recorte: Recorte | None, size: tuple[int, int]) -> np.ndarray | None:
    """Where the product is (holes filled, stray specks and lone letters dropped), or None when the
    mask is not trusted. The mask's main parts are kept: letters drawn on the background are small
    parts of their own."""
    if recorte is None or not recorte.separavel or recorte.mascara is None:
        return None
    mask = recorte.mascara
    if mask.size != size:
        mask = mask.resize(size, Image.Resampling.BILINEAR)
    binary = (np.asarray(mask) >= 128).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    if count <= 1:
        return np.zeros(binary.shape, bool)
    areas = stats[1:, cv2.CC_STAT_AREA]
    main = (np.isin(labels, 1 + np.flatnonzero(areas >= areas.max() / 2))).astype(np.uint8)
    contours, _ = cv2.findContours(main, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(main)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled.astype(bool)


def _overlaid(caixa: tuple[int, int, int, int], produto: np.ndarray | None, size: tuple[int, int]) -> bool:
    x0, y0, x1, y1 = caixa
    width, height = size
    if produto is None:  # no trusted mask: a word along the photo's edges was put there
        margin = MARGEM_SEM_RECORTE * min(width, height)
        return y1 <= margin or y0 >= height - margin or x1 <= margin or x0 >= width - margin
    inside = produto[max(0, y0) : max(y0 + 1, y1), max(0, x0) : max(x0 + 1, x1)]
    return inside.size == 0 or float(inside.mean()) < DENTRO_DO_PRODUTO
