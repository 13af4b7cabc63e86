"""The product cut out from its photo: a mask and the service's own confidence in it.

Shared by the quality check (which warns before anything renders) and the renderers (which frame,
shadow and measure the product from the mask). CPU-bound: OpenCV's core, NumPy, and for scenes a
salient-object model run by onnxruntime (graphql_api/midia/saliencia.py; its weights are installed
by scripts/install, never fetched here). Callers run it in a worker process or a render thread.

    recorte = recortar(imagem)       # RGB, or RGBA whose transparency is the answer
    recorte.separavel                # confianca >= CONFIANCA_MINIMA
    recorte.mascara                  # L, the photo's size, 255 = product, a pixel or two of feather
    recorte.sinais                   # what the confidence was made of
    recorte.causa                    # why it is not trusted (a key of CAUSAS), None when it is

Every photo is cut at one working size, LADO_RECORTE, whatever size it comes in: one photo, one
verdict. A plain backdrop the classical method below separates keeps its answer; a scene (a table,
a shelf, outdoors) is cut by the learned maps (`_aprendido`), where the classical answer only
confirms or contradicts.

The classical method. A product photographed in focus has a sharp edge all round it; its cast shadow, a floor's
gradient, vignetting, wood grain or a shelf out of focus have none. So:

1. Sharp edges, on a copy of at most 512 px: a step in Lab colour that is large against the photo's
   noise and makes most of the local range in one pixel (a blurred edge spreads over several).
   Steps are also averaged along 7-pixel runs, so that a faint long edge (a white mug on a white
   sweep) rises above the noise. Lines of lettering laid over the photo are set aside.
2. The background as the frame shows it: a smooth colour surface fitted robustly on the frame.
   Where it fits (`fundo_uniforme`), the stretches where something else meets the frame close the
   outline there (a product cut by the frame); otherwise the scene is `fundo_variado`.
3. Inside: on a 256-px grid, how many of 8 rays from each pixel meet an edge before the frame; 6 or
   more is inside an outline. An outline with gaps (where the product matches its background for a
   stretch) still blocks most rays. Parts cut by the frame that neither reach the middle nor lie
   against the product, or that hold lettering, are banners and neighbours, not the product.
4. Not product: background seen through it (a mug's handle: background-coloured, closed by edges
   all round); a glossy floor's reflection (below the base, a faded upside-down copy).
5. GrabCut settles, by colour, a ring round the outline, at the finest scale that fits 48 000
   pixels; a small product gets a second, magnified look first. A guided filter then carries the
   edge to the photo's full resolution, within one GrabCut pixel of GrabCut's own.

Measured on tests/render/cenarios.py before choosing (mask IoU over the thirteen scenes at 1600 px):
GrabCut started from the frame alone, 0.03 to 0.94 (it takes vignetting, shadows and text for the
product); a background colour surface with GrabCut, 0.15 to 0.97 (it fails on clutter, dark on
dark, light on light and a product cut by the frame); a distance from the frame across edges leaks
through an outline's gaps. This method: 0.99 to 1.00 on the twelve that can be cut out (0.94 or
more at 1000 and 1800 px), 0.91 to 1.00 on their variants (bench/qualidade_midia.py). GrabCut runs
two rounds: one round saves a third of its time but loses a kit's second piece at 1000 px.

The confidence comes from the photo only (never from a true mask): the weakest of six scores
(`_SCORES`), each placed where the masks measured on the scenes, their variants and harder cases
stop reaching 0.90 IoU.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from PIL import Image

from graphql_api.midia import saliencia
from graphql_api.midia.enquadramento import CONFIANCA_MINIMA, LADO_RECORTE

TRANSPARENCIA, FUNDO_UNIFORME, FUNDO_VARIADO = "transparencia", "fundo_uniforme", "fundo_variado"
APRENDIDO = "aprendido"  # a scene: the learned salient-object maps seed GrabCut (see _aprendido)
# What recortar may be asked to use (bench/ and the tests compare them): both methods combined
# (the service's), the classical one alone, one model alone.
COMBINADO, CLASSICO = "combinado", "classico"
METODOS = (COMBINADO, CLASSICO, saliencia.PEQUENO, saliencia.GRANDE)
_ACORDO_CLASSICO = 0.9  # IoU of the two methods' masks at which they agree on the product
_DIVERGENTE = 0.8  # the confidence of a cut the two methods disagree on, at most

# Why a cut is not trusted (Recorte.causa), in words a seller acts on: the check's detail
# (conferencia/regras.py) and the renderers' notes (geracao/render/observacoes.py) say them.
NADA, DIVERGEM, BORDA, CONTORNO, FUNDO, SOMBRA, PEQUENO_NA_FOTO = (
    "nada",
    "divergem",
    "borda",
    "contorno",
    "fundo",
    "sombra",
    "pequeno",
)
CAUSAS = {
    NADA: "nenhum objeto se destaca do fundo na foto; fotografe o produto sozinho, de perto, sobre um fundo liso",
    DIVERGEM: (
        "os métodos de recorte não concordam sobre onde o produto termina (outros objetos encostados nele ou um "
        "fundo parecido com ele); afaste os outros objetos e fotografe sobre um fundo liso e claro"
    ),
    BORDA: (
        "o produto encosta na borda da foto (ou um objeto vizinho, que continua fora dela, foi tomado por parte "
        "dele); fotografe o produto inteiro, com uma margem livre em volta"
    ),
    CONTORNO: "o contorno do produto se confunde com o fundo; use um fundo liso de cor diferente da do produto",
    FUNDO: "o fundo tem textura ou outros objetos em foco; fotografe sobre um fundo liso e claro",
    SOMBRA: "há uma sombra dura junto à base do produto; use luz difusa, sem flash direto",
    PEQUENO_NA_FOTO: "o produto ocupa muito pouco da foto; fotografe mais perto",
}

_ALPHA_MODES = ("RGBA", "LA", "PA")
_MIN_TRANSPARENT = 0.01  # share of transparent pixels for the alpha to be the mask

_ANALYSIS_SIDE = 512  # long side where edges are judged sharp or blurred
_ANALYSIS_SHRINK = 0.66  # at most, so that sensor noise and JPEG's 8-pixel blocks average out
_GRID_SIDE = 256  # long side of the grid where regions are reasoned about
_GRABCUT_PIXELS = 48_000  # GrabCut's budget: the product's surroundings at the finest scale that fits
_EDGE = 30.0  # cost (step against the noise, weighed by sharpness) above which a step is an edge
_SHARP = (0.36, 0.48)  # step / local range: blurred edges (a busy background out of focus) below
_ENCLOSED = 6  # of 8 rays that meet an edge: inside an outline


@dataclass(frozen=True, slots=True)
class Recorte:
    mascara: Image.Image | None  # L, 255 = product; None when nothing could be told apart
    confianca: float  # 0..1: how sure the service is that the mask is the product
    metodo: str  # how it was found: transparencia, fundo_uniforme, fundo_variado
    sinais: dict[str, float] = field(default_factory=dict)  # the confidence's signals (see _SCORES)

    @property
    def separavel(self) -> bool:
        return self.mascara is not None and self.confianca >= CONFIANCA_MINIMA

    @property
    def caixa(self) -> tuple[int, int, int, int] | None:
        """The product's bounding box (mask above half), or None."""
        if self.mascara is None:
            return None
        return self.mascara.point(lambda v: 255 if v >= 128 else 0).getbbox()

    @property
    def causa(self) -> str | None:
        """Why the cut is not trusted, a key of CAUSAS (None when it is): what the seller is told."""
        if self.separavel or self.metodo == TRANSPARENCIA:
            return None
        if self.mascara is None:
            return NADA
        if self.sinais.get("divergencia"):
            return DIVERGEM
        scores = _SCORES_APRENDIDO if self.metodo == APRENDIDO else _SCORES
        present = [name for name in scores if name in self.sinais]
        if not present:
            return None
        weakest = min(present, key=lambda name: float(np.interp(self.sinais[name], *scores[name])))
        return _CAUSA_DO_SINAL[weakest]


def recortar(imagem: Image.Image, metodo: str = COMBINADO) -> Recorte:
    """The product's mask in `imagem` (any mode; an alpha channel with transparency is used as is).

    Combined (the default): the classical method first; its answer stands where it is exact and
    fast, a plain backdrop it separates. Elsewhere (a scene, or a backdrop it could not separate)
    the learned maps decide, and the classical cut only adds its agreement to the signals."""
    if metodo not in METODOS:
        raise ValueError(f"metodo {metodo!r}: one of {METODOS}")
    if imagem.mode in _ALPHA_MODES or (imagem.mode == "P" and "transparency" in imagem.info):
        alpha = imagem.convert("RGBA").getchannel("A")
        transparent = np.count_nonzero(np.asarray(alpha) < 128) / max(1, alpha.width * alpha.height)
        if transparent >= _MIN_TRANSPARENT and alpha.getbbox() is not None:
            return Recorte(alpha, 1.0, TRANSPARENCIA)
    rgb = np.asarray(imagem.convert("RGB"))
    recorte = _recortar_rgb(_no_lado_de_trabalho(rgb), metodo)
    if recorte.mascara is None or recorte.mascara.size == imagem.size:
        return recorte
    mascara = recorte.mascara.resize(imagem.size, Image.Resampling.BILINEAR)
    return Recorte(mascara, recorte.confianca, recorte.metodo, recorte.sinais)


def _no_lado_de_trabalho(rgb: np.ndarray) -> np.ndarray:
    """The photo with its long side at LADO_RECORTE, larger or smaller: every caller (the check,
    the production and test renderers, the edits) cuts the same pixels out and gets the same
    verdict, whatever size or format the photo came in."""
    height, width = rgb.shape[:2]
    if max(height, width) == LADO_RECORTE:
        return rgb
    scale = LADO_RECORTE / max(height, width)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    if scale < 1:
        return _resize(rgb, size)
    return cv2.resize(rgb, size, interpolation=cv2.INTER_CUBIC)


def _recortar_rgb(rgb: np.ndarray, metodo: str) -> Recorte:
    if metodo in saliencia.MODELOS:
        return _aprendido(rgb, None, (metodo,))
    classico = _segmentar(rgb)
    if metodo == CLASSICO or not saliencia.disponivel(saliencia.PEQUENO):
        return classico
    if classico.separavel and classico.metodo == FUNDO_UNIFORME:
        return classico
    aprendido = _aprendido(rgb, classico)
    if not classico.separavel:
        return aprendido
    # Both methods answered on a scene: where they agree on the product, trust it; where they
    # disagree, one of them is wrong and neither is trusted.
    if aprendido.sinais.get("classico", 0.0) >= _ACORDO_CLASSICO:
        return replace(aprendido, confianca=max(aprendido.confianca, classico.confianca))
    pior = aprendido if aprendido.mascara is not None else classico
    sinais = {**pior.sinais, "divergencia": 1.0}
    return replace(pior, confianca=min(pior.confianca, _DIVERGENTE), sinais=sinais)


def _segmentar(rgb: np.ndarray) -> Recorte:
    height, width = rgb.shape[:2]
    view = (0, 0, width, height)
    esboco = _Esboco.of(rgb)
    closer = esboco.closer_view() if esboco.found else None
    if closer is not None:  # a small product: look again at its surroundings, magnified
        x0, y0, x1, y1 = closer
        zoomed = _Esboco.of(rgb[y0:y1, x0:x1])
        if zoomed.found:
            esboco, view = zoomed, closer
    if not esboco.found:
        return Recorte(None, 0.0, esboco.metodo)
    vx0, vy0, vx1, vy1 = view
    region = rgb[vy0:vy1, vx0:vx1]
    mask, small, box = _grabcut(region, esboco)
    if mask is None:
        return Recorte(None, 0.0, esboco.metodo)
    x0, y0, x1, y1 = box
    soft = np.zeros(region.shape[:2], np.uint8)
    soft[y0:y1, x0:x1] = _refine(region, mask, small, box)
    sinais = esboco.sinais(soft)
    full = np.zeros((height, width), np.uint8)
    full[vy0:vy1, vx0:vx1] = soft
    return Recorte(Image.fromarray(full, "L"), _confianca(sinais), esboco.metodo, sinais)


# -- the learned cut ---------------------------------------------------------------------------------

_MAPA_PRODUTO, _MAPA_FUNDO = 0.8, 0.1  # map values GrabCut takes as product, background, for sure
_DUVIDA = (0.2, 0.8)  # a map value in between is the model's doubt
_GRADE = saliencia.LADO_ENTRADA  # the maps' side: the signals are measured on that grid
_BANDA_MOLDURA = 0.005  # a mask this close to the frame (share of the long side) runs into it
_MARGEM_VISTA = 0.25  # round the product's box, for the closer look (share of its long side)


def _aprendido(rgb: np.ndarray, classico: Recorte | None, modelos: tuple[str, ...] = (saliencia.PEQUENO,)) -> Recorte:
    """A scene: the salient-object map of the whole photo seeds GrabCut, which settles the edge by
    colour, and the guided filter carries it to the photo's resolution. The confidence comes from
    a closer second look of the same model at the product's box (`escala`: the same product at
    another scale), the map's doubt, GrabCut's agreement with it, and how the mask sits in the
    frame; the classical cut's agreement is kept as a signal. The service uses the small model
    (U²-Netp): on the evaluation set the big one (U²-Net, `modelos`, bench/) made no photo
    separable that the small one did not, at twice the time (docs/midia.md). With two models,
    both maps seed the cut and their agreement is one more signal."""
    mapas = {m: saliencia.mapa_entrada(rgb, m) for m in modelos}
    return _cortar(rgb, mapas, classico, modelos[0])


def _cortar(rgb: np.ndarray, mapas: dict[str, np.ndarray], classico: Recorte | None, modelo_perto: str) -> Recorte:
    """The cut seeded by `mapas`, and its signals."""
    height, width = rgb.shape[:2]
    pilha = np.stack(list(mapas.values()))
    vazio = Recorte(None, 0.0, APRENDIDO, {"n_modelos": float(len(mapas))})
    mask, small, box = _grabcut_mapas(rgb, pilha)
    if mask is None:
        return vazio
    x0, y0, x1, y1 = box
    soft = np.zeros((height, width), np.uint8)
    soft[y0:y1, x0:x1] = _refine(rgb, mask, small, box)
    if not (soft > 127).any():
        return vazio
    vista = _vista(soft > 127)
    vx0, vy0, vx1, vy1 = vista
    perto = saliencia.mapa_entrada(rgb[vy0:vy1, vx0:vx1], modelo_perto)
    sinais = _sinais_aprendidos(pilha, soft, vista, perto, classico)
    return Recorte(Image.fromarray(soft, "L"), _confianca(sinais, _SCORES_APRENDIDO), APRENDIDO, sinais)


def _vista(mask: np.ndarray) -> tuple[int, int, int, int]:
    """The closer look: the mask's box with a margin, in the photo's pixels."""
    height, width = mask.shape
    ys, xs = np.nonzero(mask)
    margin = round(_MARGEM_VISTA * max(xs.max() - xs.min() + 1, ys.max() - ys.min() + 1))
    return (
        max(0, int(xs.min()) - margin),
        max(0, int(ys.min()) - margin),
        min(width, int(xs.max()) + 1 + margin),
        min(height, int(ys.max()) + 1 + margin),
    )


def _grabcut_mapas(
    rgb: np.ndarray, mapas: np.ndarray
) -> tuple[np.ndarray | None, np.ndarray, tuple[int, int, int, int]]:
    """GrabCut seeded by the maps, on the box round what any map calls possibly product, at the
    finest scale that fits the budget: product where every map is sure, background where none sees
    anything, and the mean's verdict for GrabCut to revise by colour elsewhere."""
    height, width = rgb.shape[:2]
    alto, baixo, media = mapas.max(axis=0), mapas.min(axis=0), mapas.mean(axis=0)
    ys, xs = np.nonzero(alto > _MAPA_FUNDO)
    if ys.size == 0:
        return None, rgb, (0, 0, width, height)
    gh, gw = alto.shape
    margin = max(2, round(0.03 * max(gh, gw)))
    sx, sy = width / gw, height / gh
    box = (
        max(0, round((xs.min() - margin) * sx)),
        max(0, round((ys.min() - margin) * sy)),
        min(width, round((xs.max() + 1 + margin) * sx)),
        min(height, round((ys.max() + 1 + margin) * sy)),
    )
    bw, bh = box[2] - box[0], box[3] - box[1]
    scale = min(1.0, float(np.sqrt(_GRABCUT_PIXELS / (bw * bh))))
    cw, ch = max(8, round(bw * scale)), max(8, round(bh * scale))
    crop = _resize(rgb[box[1] : box[3], box[0] : box[2]], (cw, ch))

    def up(m: np.ndarray) -> np.ndarray:
        # the map's pixels that cover the box, at the crop's scale
        full = cv2.resize(m, (width, height), interpolation=cv2.INTER_LINEAR)
        return cv2.resize(full[box[1] : box[3], box[0] : box[2]], (cw, ch), interpolation=cv2.INTER_AREA)

    lo, hi, mean = up(baixo), up(alto), up(media)
    labels = np.where(mean >= 0.5, cv2.GC_PR_FGD, cv2.GC_PR_BGD).astype(np.uint8)
    labels[lo > _MAPA_PRODUTO] = cv2.GC_FGD
    labels[hi < _MAPA_FUNDO] = cv2.GC_BGD
    fg = (labels == cv2.GC_FGD) | (labels == cv2.GC_PR_FGD)
    bg = (labels == cv2.GC_BGD) | (labels == cv2.GC_PR_BGD)
    if not fg.any() or not bg.any():
        return (mean >= 0.5) if fg.any() else None, crop, box
    cv2.setRNGSeed(1)
    cv2.grabCut(
        crop[..., ::-1].copy(), labels, (0, 0, 0, 0), np.zeros((1, 65)), np.zeros((1, 65)), 2, cv2.GC_INIT_WITH_MASK
    )
    return (labels == cv2.GC_FGD) | (labels == cv2.GC_PR_FGD), crop, box


def _sinais_aprendidos(
    mapas: np.ndarray,
    soft: np.ndarray,
    vista: tuple[int, int, int, int],
    perto: np.ndarray,
    classico: Recorte | None,
) -> dict[str, float]:
    """What the learned cut's confidence is made of, each on a grid of the maps' side: the maps
    against the mask `soft`, and the closer look (`perto`, the map of the `vista` crop) against
    the mask there."""
    grade = cv2.resize(soft, (_GRADE, _GRADE), interpolation=cv2.INTER_AREA) > 127
    vx0, vy0, vx1, vy1 = vista
    na_vista = cv2.resize(soft[vy0:vy1, vx0:vx1], (_GRADE, _GRADE), interpolation=cv2.INTER_AREA) > 127
    binarios = mapas > 0.5
    lo, hi = _DUVIDA
    duvida = max(float(((m > lo) & (m < hi)).sum() / max(1, (m > 0.5).sum())) for m in mapas)
    mask = soft > 127
    band = max(2, round(_BANDA_MOLDURA * max(mask.shape)))
    frame = np.concatenate(
        [mask[:band].any(axis=0), mask[-band:].any(axis=0), mask[:, :band].any(axis=1), mask[:, -band:].any(axis=1)]
    )
    sinais = {
        # the models' masks cover the same pixels (IoU; 1 with one model)
        "modelos": min((_iou(a, b) for i, a in enumerate(binarios) for b in binarios[i + 1 :]), default=1.0),
        "escala": _iou(perto > 0.5, na_vista),  # a closer look finds the same product
        "duvida": duvida,  # map values in doubt, against the product's area
        "grabcut": _iou(grade, mapas.mean(axis=0) > 0.5),  # GrabCut kept what the maps said
        "toques": float(_frame_runs(grade)),
        "moldura": float(frame.mean()),  # share of the photo's frame the mask runs into (or nearly)
        "area": float(grade.mean()),
        "n_modelos": float(len(mapas)),
    }
    if classico is not None and classico.mascara is not None:
        antigo = cv2.resize(np.asarray(classico.mascara), (_GRADE, _GRADE), interpolation=cv2.INTER_AREA) > 127
        sinais["classico"] = _iou(grade, antigo)
    return sinais


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    union = np.count_nonzero(a | b)
    return float(np.count_nonzero(a & b) / union) if union else 0.0


_Nota = tuple[tuple[float, float], tuple[float, float]]  # signal values → scores, interpolated

_SCORES_APRENDIDO: dict[str, _Nota] = {
    "escala": ((0.85, 0.95), (0.7, 1.0)),
    "modelos": ((0.85, 0.95), (0.7, 1.0)),
    "duvida": ((0.04, 0.12), (1.0, 0.8)),
    "grabcut": ((0.85, 0.95), (0.7, 1.0)),
    "toques": ((2.0, 3.0), (1.0, 0.8)),
    # a mask that runs into the frame holds something the photo cuts: the product is not whole in
    # it, or a neighbour that goes on outside was taken for part of it (a spoon beside a cup)
    "moldura": ((0.001, 0.004), (1.0, 0.8)),
    "area": ((0.01, 0.03), (0.7, 1.0)),
}


_CAUSA_DO_SINAL = {
    # classical
    "acordo": FUNDO,
    "contorno": CONTORNO,
    "fundo_nitido": FUNDO,
    "toques": BORDA,
    "cruzamentos": FUNDO,
    "sombra": SOMBRA,
    # learned
    "escala": DIVERGEM,
    "modelos": DIVERGEM,
    "duvida": CONTORNO,
    "grabcut": CONTORNO,
    "moldura": BORDA,
    "area": PEQUENO_NA_FOTO,
}


# -- the confidence ----------------------------------------------------------------------------------

# Each signal maps to a score that falls below CONFIANCA_MINIMA where the masks measured on the test
# scenes, their variants and harder cases (bench/qualidade_midia.py) stop reaching 0.90 IoU.
_SCORES: dict[str, _Nota] = {
    # the region found from edges and GrabCut's verdict by colour cover the same pixels (IoU)
    "acordo": ((0.55, 0.75), (0.7, 1.0)),
    # share of the mask's edge that runs along a sharp edge of the photo
    "contorno": ((0.5, 0.75), (0.7, 1.0)),
    # sharp edges left in the background: a scene in focus all over, not a product before a backdrop
    "fundo_nitido": ((0.006, 0.014), (1.0, 0.8)),
    # separate stretches where the mask meets the frame (a product cut by it meets it once or twice)
    "toques": ((2.0, 3.0), (1.0, 0.8)),
    # sharp edges that run into the frame outside the product's own outline
    "cruzamentos": ((8.0, 14.0), (1.0, 0.8)),
    # share of the mask that looks like a hard shadow on the floor (a flash's, with a sharp edge)
    "sombra": ((0.02, 0.06), (1.0, 0.8)),
}


def _confianca(sinais: dict[str, float], tabela: dict[str, _Nota] | None = None) -> float:
    """The weakest of the signals' scores (`tabela`: the classical method's by default)."""
    scores = [float(np.interp(sinais[name], xs, ys)) for name, (xs, ys) in (tabela or _SCORES).items()]
    return round(min(scores), 3)


# -- where the product is -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Esboco:
    """Where the product is, on a grid over one view of the photo (the whole of it, or a small
    product's surroundings): `sure` is product, `background` is not, `maybe` is for GrabCut to settle
    by colour."""

    size: tuple[int, int]  # the view's width and height in the photo's pixels
    edges: np.ndarray  # the view's sharp edges at the analysis scale (lettering left out)
    lab: np.ndarray  # grid: the view in Lab
    fundo: _Fundo
    rough: np.ndarray  # grid: inside the outline, less holes and reflection
    sure: np.ndarray
    maybe: np.ndarray
    background: np.ndarray  # grid: holes, reflection, banners and lettering
    overlay: np.ndarray  # grid: banners, neighbours cut by the frame, lettering

    @property
    def found(self) -> bool:
        return bool(self.maybe.any())

    @property
    def metodo(self) -> str:
        return FUNDO_UNIFORME if self.fundo.uniforme else FUNDO_VARIADO

    @staticmethod
    def of(rgb: np.ndarray) -> _Esboco:
        size = (rgb.shape[1], rgb.shape[0])
        small = _reduce(rgb, min(_ANALYSIS_SIDE, round(max(size) * _ANALYSIS_SHRINK)))
        edges = _sharp_edges(_lab(small))
        text = _text_lines(edges, max(small.shape[:2]))
        edges &= ~text
        factor = max(1, round(max(small.shape[:2]) / _GRID_SIDE))
        grid_rgb = _reduce(small, max(small.shape[:2]) // factor)
        shape = grid_rgb.shape[:2]
        lab = _lab(grid_rgb)
        grid_text = _pool(text, factor, shape)
        outline = _pool(edges, factor, shape)
        fundo = _Fundo.of(lab)
        if fundo.uniforme:
            outline |= fundo.frame_crossings(lab)
        thick = cv2.dilate(outline.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        count = _blocked_rays(thick)
        rough, overlay = _inside(count, thick, grid_text)
        if overlay.any():  # a banner or a neighbour cut by the frame: its lines no longer enclose
            thick &= ~cv2.dilate(overlay.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
            count = _blocked_rays(thick)
            rough, more = _inside(count, thick, grid_text)
            overlay |= more
        overlay |= grid_text & ~cv2.dilate(rough.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        nothing = np.zeros(shape, bool)
        if not rough.any():
            return _Esboco(size, edges, lab, fundo, rough, nothing, nothing, overlay, overlay)
        like = _background_like(rough, lab, grid_rgb, fundo)
        holes = _holes(rough, thick, like)
        reflection = _reflection(rough, lab, fundo) if fundo.uniforme else nothing
        rough &= ~(holes | reflection)
        background = holes | reflection | overlay
        maybe = _bridged(rough, count) & ~background if rough.any() else nothing
        # product for sure: inside and not open to the frame, or inside and plainly not background
        # (GrabCut's five colour clusters cannot hold every block of a many-coloured product)
        plain = like | _shadow_like(lab, fundo) if fundo.uniforme else like
        sure = rough & ((~_open_to_frame(thick) & ~like) | (~plain & ~thick))
        return _Esboco(size, edges, lab, fundo, rough, sure, maybe, background, overlay)

    def closer_view(self) -> tuple[int, int, int, int] | None:
        """For a product under 40 % of the grid's side: a view twice its size round it (in the
        photo's pixels), else None."""
        gh, gw = self.maybe.shape
        ys, xs = np.nonzero(self.maybe)
        long_side = max(xs.max() - xs.min(), ys.max() - ys.min()) + 1
        if long_side >= 0.4 * max(gh, gw):
            return None
        cx, cy = (xs.min() + xs.max() + 1) / 2, (ys.min() + ys.max() + 1) / 2
        sx, sy = self.size[0] / gw, self.size[1] / gh
        return (
            max(0, round((cx - long_side) * sx)),
            max(0, round((cy - long_side) * sy)),
            min(self.size[0], round((cx + long_side) * sx)),
            min(self.size[1], round((cy + long_side) * sy)),
        )

    def sinais(self, soft: np.ndarray) -> dict[str, float]:
        """The confidence's signals for the mask `soft` (the view's size), from the photo alone."""
        h, w = self.edges.shape
        gh, gw = self.rough.shape
        at_analysis = _resize(soft, (w, h))
        mask = at_analysis > 127
        grid_mask = cv2.resize(at_analysis, (gw, gh), interpolation=cv2.INTER_AREA) > 127
        if not mask.any() or not grid_mask.any():
            return dict.fromkeys(_SCORES, 0.0)
        boundary = mask & ~cv2.erode(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        near_edge = cv2.dilate(self.edges.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        own_outline = cv2.dilate(boundary.astype(np.uint8), _disk(3)).astype(bool)
        overlay = cv2.resize(self.overlay.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
        explained = cv2.dilate(overlay, _disk(3)).astype(bool)  # banners and lettering, found as such
        around = cv2.dilate(mask.astype(np.uint8), _disk(round(0.03 * max(h, w)))).astype(bool)
        scene = ~(around | explained)
        union = (grid_mask | self.rough).sum()
        return {
            "acordo": float((grid_mask & self.rough).sum() / union),
            "contorno": float(near_edge[boundary].mean()),
            "fundo_nitido": float(self.edges[scene].mean()) if scene.any() else 0.0,
            "toques": float(_frame_runs(mask)),
            "cruzamentos": float(_frame_crossings(self.edges & ~own_outline)),
            "sombra": _hard_shadow(grid_mask, self.lab, self.fundo) if self.fundo.uniforme else 0.0,
        }


# -- edges ----------------------------------------------------------------------------------------------


def _sharp_edges(lab: np.ndarray) -> np.ndarray:
    """Steps in colour that are sharp: a product in focus has them all round; a shadow, a gradient or
    a background out of focus has none. A step counts by its size against the noise and by how
    much of the local range it makes in one pixel (a blurred edge spreads over several)."""
    window = np.ones((9, 9), np.uint8)
    spread = _colour_norm(cv2.dilate(lab, window) - cv2.erode(lab, window))
    # steps across the edge, plain and averaged along it (a faint long edge rises above the noise)
    along_y, along_x = cv2.blur(lab, (1, 7)), cv2.blur(lab, (7, 1))
    cost = np.zeros(lab.shape[:2], np.float32)
    lo, hi = _SHARP
    for img, axis in ((lab, 1), (lab, 0), (along_y, 1), (along_x, 0)):
        step = _colour_norm(img[1:] - img[:-1] if axis == 0 else img[:, 1:] - img[:, :-1])
        noise = max(float(np.median(step[::3, ::3])), 0.3)
        step = np.pad(step, [(0, 1), (0, 0)] if axis == 0 else [(0, 0), (0, 1)])
        sharp = np.clip((step / (spread + 3 * noise) - lo) / (hi - lo), 0, 1)
        c = sharp * np.maximum(0, step / noise - 3) ** 2
        np.maximum(cost, c, out=cost)
        np.maximum(cost, np.roll(c, 1, axis), out=cost)  # the step is between two pixels: both
    return cost > _EDGE


def _colour_norm(lab_difference: np.ndarray) -> np.ndarray:
    """Euclidean length of a Lab difference per pixel (OpenCV: numpy's axis reductions are slow)."""
    return cv2.sqrt(cv2.transform(lab_difference * lab_difference, np.ones((1, 3), np.float32)))


def _text_lines(edges: np.ndarray, side: int) -> np.ndarray:
    """Lines of lettering (three or more glyph-sized outlines side by side, or a word whose letters
    touch): sellers' banners, shop names and @handles."""
    joined = cv2.dilate(edges.astype(np.uint8), np.ones((2, 2), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    glyphs = []
    strokes: dict[tuple[int, int, int, int], int] = {}  # across the middle of each glyph (a word: many)
    for i, (x, y, w, h, area) in enumerate(stats[1:], start=1):
        if 4 <= h <= 0.1 * side and w <= 15 * h and area >= 0.2 * w * h:
            glyph = (int(x), int(y), int(w), int(h))
            row = y + h // 2
            middle = np.concatenate([[False], edges[row, x : x + w] & (labels[row, x : x + w] == i), [False]])
            strokes[glyph] = int(np.count_nonzero(middle[1:] & ~middle[:-1]))
            glyphs.append(glyph)
    glyphs.sort()
    parent = list(range(len(glyphs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (x, y, w, h) in enumerate(glyphs):
        for j in range(i + 1, len(glyphs)):
            x2, y2, w2, h2 = glyphs[j]
            if x2 > x + w + 1.5 * max(h, h2):
                break
            tall = max(h, h2)
            if tall > 2.2 * min(h, h2):
                continue
            if abs((y + h) - (y2 + h2)) > 0.35 * tall and abs((y + h / 2) - (y2 + h2 / 2)) > 0.3 * tall:
                continue
            parent[find(j)] = find(i)
    lines: dict[int, list[tuple[int, int, int, int]]] = {}
    for i, g in enumerate(glyphs):
        lines.setdefault(find(i), []).append(g)
    out = np.zeros(edges.shape, bool)
    for members in lines.values():
        x0 = min(g[0] for g in members)
        y0 = min(g[1] for g in members)
        x1 = max(g[0] + g[2] for g in members)
        y1 = max(g[1] + g[3] for g in members)
        if (x1 - x0) < 3 * (y1 - y0):
            continue
        if len(members) < 3 and ((x1 - x0) < 5 * (y1 - y0) or max(strokes[g] for g in members) < 8):
            continue  # one or two outlines make a word only when many strokes cross them
        pad = max(2, round(0.25 * (y1 - y0)))
        out[max(0, y0 - pad) : y1 + pad, max(0, x0 - pad) : x1 + pad] = True
    return out


# -- the background ----------------------------------------------------------------------------------


@dataclass
class _Fundo:
    """The background as the frame shows it: a smooth colour surface (studio sweep, wall, gradient)
    when most of the frame fits one, else a scene."""

    model: np.ndarray  # Lab per pixel (the surface fitted on the frame)
    sigma: float  # the frame's spread around it
    uniforme: bool

    @staticmethod
    def of(lab: np.ndarray) -> _Fundo:
        h, w = lab.shape[:2]
        band = max(2, round(0.03 * max(h, w)))
        sel = np.zeros((h, w), bool)
        sel[:band] = sel[-band:] = True
        sel[:, :band] = sel[:, -band:] = True
        ys, xs = np.nonzero(sel)
        values = lab[ys, xs]
        terms = _surface_terms(h, w, ys, xs)
        residual = np.linalg.norm(values - np.median(values, axis=0), axis=1)
        sigma = 1.4826 * float(np.median(residual)) + 0.5
        inliers = residual < 3 * sigma
        coef = np.zeros((terms.shape[1], 3), np.float32)
        for _ in range(3):
            t = terms[inliers]
            coef = np.linalg.solve(t.T @ t + 1e-6 * np.eye(t.shape[1]), t.T @ values[inliers])
            residual = np.linalg.norm(values - terms @ coef, axis=1)
            sigma = 1.4826 * float(np.median(residual[inliers])) + 0.3
            inliers = residual < max(3 * sigma, 2.0)
        y = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None, None]
        x = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :, None]
        c = coef.astype(np.float32)
        model = c[0] + c[1] * x + c[2] * y + c[3] * x * x + c[4] * y * y + c[5] * x * y
        return _Fundo(model, sigma, bool(inliers.mean() >= 0.5 and sigma < 2.5))

    def residual(self, lab: np.ndarray) -> np.ndarray:
        return _colour_norm(lab - self.model)

    def frame_crossings(self, lab: np.ndarray) -> np.ndarray:
        """Where something other than the background meets the frame (a product cut by it, a banner),
        as edges, so that its outline closes along the frame. Only for one to three such stretches:
        more is a busy scene, not a product."""
        h, w = lab.shape[:2]
        off = self.residual(lab) > max(4 * self.sigma, 6.0)
        ring_y = np.concatenate([np.zeros(w, int), np.arange(h), np.full(w, h - 1), np.arange(h)[::-1]])
        ring_x = np.concatenate([np.arange(w), np.full(h, w - 1), np.arange(w)[::-1], np.zeros(h, int)])
        along = off[ring_y, ring_x]
        out = np.zeros((h, w), bool)
        if not along.any() or along.all():
            return out
        start = int(np.argmin(along))  # walk from a background pixel so no stretch wraps around
        along = np.roll(along, -start)
        ring_y, ring_x = np.roll(ring_y, -start), np.roll(ring_x, -start)
        padded = np.concatenate([[False], along, [False]])
        changes = np.flatnonzero(padded[1:] != padded[:-1])
        runs = [(a, b) for a, b in zip(changes[::2], changes[1::2], strict=True) if b - a >= 0.02 * along.size]
        if not 1 <= len(runs) <= 3:
            return out
        for a, b in runs:
            out[ring_y[a:b], ring_x[a:b]] = True
        return out


def _surface_terms(h: int, w: int, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    y = ys.astype(np.float32) / h - 0.5
    x = xs.astype(np.float32) / w - 0.5
    return np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=-1)


def _background_like(rough: np.ndarray, lab: np.ndarray, rgb: np.ndarray, fundo: _Fundo) -> np.ndarray:
    """Pixels whose colour is the background's: near the fitted surface; or, in a scene, in colours
    the ring round the product has more of than the product."""
    if fundo.uniforme:
        return fundo.residual(lab) < max(2.5 * fundo.sigma, 2.0)
    bins = (rgb // 16).astype(np.int32)
    index = (bins[..., 0] * 16 + bins[..., 1]) * 16 + bins[..., 2]
    grown = cv2.dilate(rough.astype(np.uint8), np.ones((17, 17), np.uint8)).astype(bool)
    ring = grown & ~cv2.dilate(rough.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    bg = np.bincount(index[ring], minlength=4096) / max(1, ring.sum())
    fg = np.bincount(index[rough], minlength=4096) / max(1, rough.sum())
    return bg[index] > fg[index]


def _shadow_like(lab: np.ndarray, fundo: _Fundo) -> np.ndarray:
    """The background's own hue, darkened (a shadow on it)."""
    ratio = lab[..., 0] / np.maximum(fundo.model[..., 0], 1.0)
    hue = _colour_norm(np.dstack([np.zeros_like(ratio), lab[..., 1:] - fundo.model[..., 1:]]))
    return (ratio > 0.3) & (ratio < 1.0) & (hue < max(3.0, 3 * fundo.sigma))


# -- inside the outline ------------------------------------------------------------------------------


def _blocked_rays(edges: np.ndarray) -> np.ndarray:
    """For every pixel, in how many of the 8 directions a ray meets an edge before the frame. An
    outline with gaps (where the product matches the background for a stretch) still blocks most
    rays from inside it; a shadow or the background beside the product sees the frame."""
    e = edges.astype(np.uint8)
    h, w = e.shape
    count = np.zeros((h, w), np.uint8)
    for axis in (0, 1):
        count += _shifted(np.maximum.accumulate(e, axis=axis), axis, 1)
        count += _shifted(_reverse_cummax(e, axis), axis, -1)
    ys, xs = np.mgrid[0:h, 0:w]
    for diagonal in (xs - ys + h, xs + ys):  # constant along each diagonal: skew it into a column
        skewed = np.zeros((h, w + h + 1), np.uint8)
        skewed[ys, diagonal] = e
        count += _shifted(np.maximum.accumulate(skewed, axis=0), 0, 1)[ys, diagonal]
        count += _shifted(_reverse_cummax(skewed, 0), 0, -1)[ys, diagonal]
    return count


def _shifted(a: np.ndarray, axis: int, k: int) -> np.ndarray:
    out = np.zeros_like(a)
    src = [slice(None)] * 2
    dst = [slice(None)] * 2
    if k > 0:
        src[axis], dst[axis] = slice(None, -k), slice(k, None)
    else:
        src[axis], dst[axis] = slice(-k, None), slice(None, k)
    out[tuple(dst)] = a[tuple(src)]
    return out


def _reverse_cummax(a: np.ndarray, axis: int) -> np.ndarray:
    return np.flip(np.maximum.accumulate(np.flip(a, axis), axis=axis), axis)


def _inside(count: np.ndarray, edges: np.ndarray, text: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The enclosed regions that make the product, and those that do not: a region cut by the frame
    belongs to the product only when it reaches the middle of the photo or lies against a part that
    does (a box's lower face, below a printed stripe); otherwise, or when it holds lettering, it is a
    banner or a neighbouring object cut by the frame."""
    h, w = count.shape
    enclosed = cv2.morphologyEx(
        ((count >= _ENCLOSED) & ~edges).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
    )
    n, labels, stats, _ = cv2.connectedComponentsWithStats(enclosed, connectivity=4)
    x, y, cw, ch, area = (stats[:, i] for i in range(5))
    touches = (x <= 3) | (y <= 3) | (x + cw >= w - 3) | (y + ch >= h - 3)  # the frame's own edges are 2 px
    central = np.zeros(n, bool)
    central[np.unique(labels[round(h * 0.25) : round(h * 0.75), round(w * 0.25) : round(w * 0.75)])] = True
    lettered = np.bincount(labels[text], minlength=n) > 0.2 * area
    keep = (area >= 0.0005 * h * w) & (~touches | (central & ~lettered))
    keep[0] = False
    candidates = (area >= 0.0005 * h * w) & touches & ~keep & ~lettered
    candidates[0] = False
    while candidates.any():  # parts cut by the frame that lie against the product join it
        near = cv2.dilate(keep[labels].astype(np.uint8), np.ones((11, 11), np.uint8)).astype(bool)
        joining = np.zeros(n, bool)
        joining[np.unique(labels[near])] = True
        joining &= candidates
        if not joining.any():
            break
        keep |= joining
        candidates &= ~joining
    kept = keep[labels]
    frame_only = (touches & ~keep & (area >= 0.0005 * h * w))[labels] & (labels > 0)
    near = cv2.dilate(kept.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    outline = edges & near & (count >= _ENCLOSED)  # the outline and the lines between a product's parts
    return kept | outline, frame_only


def _open_to_frame(edges: np.ndarray, gap: int = 3) -> np.ndarray:
    """What the frame reaches without crossing an edge nor squeezing through a gap narrower than
    2 × `gap` (the stretches of an outline where the product matches its background): a notch
    between a product's parts is open to it, the product's inside is not."""
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * gap + 1, 2 * gap + 1))
    wide = cv2.morphologyEx((~edges).astype(np.uint8), cv2.MORPH_OPEN, disk)
    return cv2.dilate(_reaches_frame(wide.astype(bool)).astype(np.uint8), disk).astype(bool) & ~edges


def _reaches_frame(region: np.ndarray) -> np.ndarray:
    """The parts of `region` connected to the frame."""
    n, labels = cv2.connectedComponents(region.astype(np.uint8), connectivity=4)
    ring = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    touching = np.zeros(n, bool)
    touching[ring] = True
    touching[0] = False
    return touching[labels]


def _bridged(rough: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Where the product may be: its enclosed regions and, within their hull, what is half enclosed
    (a label band the same colour as the background splits a bottle's outline in two)."""
    points = cv2.findNonZero(rough.astype(np.uint8))
    hull = np.zeros(rough.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(points), 1)
    return rough | (hull.astype(bool) & (count >= 4))


def _holes(rough: np.ndarray, edges: np.ndarray, like: np.ndarray) -> np.ndarray:
    """Background seen through the product (inside a mug's handle): inside the outline, the
    background's colour (`like`), not open to the outside, and ringed by edges (the product's own
    parts that match the background, a white label on a white sweep, fade into it without one)."""
    candidates = cv2.morphologyEx((like & rough).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(candidates, connectivity=4)
    outside = cv2.dilate(_reaches_frame(~rough).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    edged = cv2.dilate(edges.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    holes = np.zeros(rough.shape, bool)
    open_to_outside = set(np.unique(labels[outside]).tolist())
    for i in range(1, n):
        if i in open_to_outside:
            continue
        part = labels == i
        if part.sum() < 10:
            continue
        ring = cv2.dilate(part.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~part & rough
        if ring.any() and edged[ring].mean() >= 0.9:
            holes |= part
    return cv2.dilate(holes.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & rough


def _reflection(rough: np.ndarray, lab: np.ndarray, fundo: _Fundo) -> np.ndarray:
    """A glossy floor's reflection: below the product's base, a faded upside-down copy of it (its
    difference from the background mirrors the product's, at well under its strength)."""
    out = np.zeros_like(rough)
    residual = lab - fundo.model
    n, labels, stats, _ = cv2.connectedComponentsWithStats(rough.astype(np.uint8), connectivity=8)
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        depth = max(3, h // 8)
        bases = np.arange(y + h // 3, y + h - depth)
        if h < 12 or bases.size == 0:
            continue
        part = (labels[y : y + h, x : x + w] == i)[..., None]
        r = np.where(part, residual[y : y + h, x : x + w], 0).reshape(h, -1)
        rows = bases - y
        cross = np.zeros(bases.size)
        above = np.zeros(bases.size)
        below = np.zeros(bases.size)
        for j in range(depth):
            a, b = r[rows - 1 - j], r[rows + j]
            cross += (a * b).sum(axis=1)
            above += (a * a).sum(axis=1)
            below += (b * b).sum(axis=1)
        valid = (above > 0) & (below > 0)
        ncc = np.where(valid, cross / np.sqrt(np.maximum(above * below, 1e-12)), 0)
        ratio = np.sqrt(below / np.maximum(above, 1e-12))
        ok = valid & (ncc > 0.85) & (ratio > 0.05) & (ratio < 0.6)
        if ok.any():
            base = int(bases[np.argmax(np.where(ok, ncc, -1))])
            out[base:] |= labels[base:] == i
    return out


# -- signals -------------------------------------------------------------------------------------------


def _hard_shadow(mask: np.ndarray, lab: np.ndarray, fundo: _Fundo) -> float:
    """Share of the mask that may be a hard shadow on the floor (a flash's, with a sharp edge, which
    the outline cannot tell from the product): at the mask's base, the background's own hue evenly
    darkened. A flat grey base of the product looks the same; either way the mask is in doubt."""
    if not mask.any():
        return 0.0
    lightness = np.maximum(fundo.model[..., 0], 1.0)
    ratio = lab[..., 0] / lightness
    hue = _colour_norm(np.dstack([np.zeros_like(ratio), lab[..., 1:] - fundo.model[..., 1:]]))
    darker = mask & (ratio > 0.3) & (ratio < 0.88) & (hue < max(3.0, 3 * fundo.sigma))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(darker.astype(np.uint8), connectivity=4)
    rows = np.nonzero(mask.any(axis=1))[0]
    bottom, height = rows.max(), rows.max() - rows.min() + 1
    shadow = 0
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area < 8 or y + h - 1 < bottom - 0.03 * height:
            continue
        part = labels[: y + h, x : x + w] == i
        low, high = np.percentile(ratio[: y + h, x : x + w][part], [25, 75])
        if high - low > 0.04:  # the product's own greys are shaded; a shadow darkens evenly
            continue
        # cast on the floor, it reaches out from under the product: nothing of it stands above it
        above = np.maximum.accumulate(mask[: y + h, x : x + w] & ~part, axis=0)
        if (part & ~above).sum() >= 0.5 * area:
            shadow += area
    return float(shadow / mask.sum())


def _frame_crossings(edges: np.ndarray) -> int:
    """How many sharp edges run into the frame (a band 2 to 4 px inside it)."""
    h, w = edges.shape
    if min(h, w) < 12:
        return 0
    band = (
        edges[2:5, :].any(axis=0),
        edges[:, -5:-2].any(axis=1),
        edges[-5:-2, ::-1].any(axis=0),
        edges[::-1, 2:5].any(axis=1),
    )
    along = np.concatenate(band)
    padded = np.concatenate([[False], along, [False]])
    return int(np.count_nonzero(padded[1:] & ~padded[:-1]))


def _frame_runs(mask: np.ndarray) -> int:
    """In how many separate stretches (each over 1 % of the perimeter) `mask` touches the frame."""
    h, w = mask.shape
    along = np.concatenate([mask[0], mask[:, -1], mask[-1, ::-1], mask[::-1, 0]])
    if along.all():
        return 1
    if not along.any():
        return 0
    along = np.roll(along, -int(np.argmin(along)))
    padded = np.concatenate([[False], along, [False]])
    changes = np.flatnonzero(padded[1:] != padded[:-1])
    return int(sum(1 for a, b in zip(changes[::2], changes[1::2], strict=True) if b - a >= 0.01 * along.size))


# -- the cut ---------------------------------------------------------------------------------------------


def _grabcut(rgb: np.ndarray, esboco: _Esboco) -> tuple[np.ndarray | None, np.ndarray, tuple[int, int, int, int]]:
    """GrabCut around the product, at the finest scale its surroundings fit in the budget: the sure
    part (shrunk) is product, the background is not, the rest and a ring round it are for GrabCut
    to tell by colour. The mask at that scale, the box's pixels at that scale, and the box in `rgb`."""
    height, width = rgb.shape[:2]
    gh, gw = esboco.maybe.shape
    margin = max(2, round(0.03 * max(gh, gw)))
    ys, xs = np.nonzero(esboco.maybe)
    gx0, gx1 = max(0, xs.min() - 2 * margin), min(gw, xs.max() + 1 + 2 * margin)
    gy0, gy1 = max(0, ys.min() - 2 * margin), min(gh, ys.max() + 1 + 2 * margin)
    sx, sy = width / gw, height / gh
    box = (round(gx0 * sx), round(gy0 * sy), min(width, round(gx1 * sx)), min(height, round(gy1 * sy)))
    bw, bh = box[2] - box[0], box[3] - box[1]
    scale = min(1.0, float(np.sqrt(_GRABCUT_PIXELS / (bw * bh))))
    cw, ch = max(8, round(bw * scale)), max(8, round(bh * scale))
    crop = _resize(rgb[box[1] : box[3], box[0] : box[2]], (cw, ch))

    def up(m: np.ndarray) -> np.ndarray:
        cut = m[gy0:gy1, gx0:gx1].astype(np.uint8)
        return cv2.resize(cut, (cw, ch), interpolation=cv2.INTER_NEAREST).astype(bool)

    per_cell = cw / (gx1 - gx0)
    ring = max(2, round(margin * per_cell))
    core = max(1, round(2 * per_cell))
    maybe, sure, background = up(esboco.maybe), up(esboco.sure), up(esboco.background)
    labels = np.full((ch, cw), cv2.GC_BGD, np.uint8)
    labels[cv2.dilate(maybe.astype(np.uint8), _disk(ring)) > 0] = cv2.GC_PR_BGD
    labels[maybe] = cv2.GC_PR_FGD
    labels[cv2.erode(sure.astype(np.uint8), np.ones((2 * core + 1, 2 * core + 1), np.uint8)) > 0] = cv2.GC_FGD
    labels[background] = cv2.GC_BGD
    fg = (labels == cv2.GC_FGD) | (labels == cv2.GC_PR_FGD)
    bg = (labels == cv2.GC_BGD) | (labels == cv2.GC_PR_BGD)
    if not fg.any() or not bg.any():
        return None, crop, box
    cv2.setRNGSeed(1)  # GrabCut seeds its colour models with k-means: the same photo, the same mask
    no_rect = (0, 0, 0, 0)  # the labels say it all (GC_INIT_WITH_MASK)
    cv2.grabCut(crop[..., ::-1].copy(), labels, no_rect, np.zeros((1, 65)), np.zeros((1, 65)), 2, cv2.GC_INIT_WITH_MASK)
    return (labels == cv2.GC_FGD) | (labels == cv2.GC_PR_FGD), crop, box


def _refine(rgb: np.ndarray, mask: np.ndarray, small: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The mask at the photo's resolution, its edge following the photo's own: a guided filter whose
    coefficients are found at GrabCut's scale (`mask` on `small`, the box's pixels scaled down) and
    applied at full size, on the band along the edge only and within one GrabCut pixel of GrabCut's
    edge (where the guide cannot tell product from background it would smear the edge: a grey
    fringe over a shadow). The guide is the colour axis along which the product and the background
    beside it differ most (orange against a grey shadow: the red)."""
    x0, y0, x1, y1 = box
    crop = rgb[y0:y1, x0:x1]
    ch, cw = mask.shape
    size = (x1 - x0, y1 - y0)
    colours = small.astype(np.float32)
    p = mask.astype(np.float32)
    cell = np.ones((3, 3), np.uint8)
    inner_small, outer_small = cv2.erode(p, cell), cv2.dilate(p, cell)
    axis: np.ndarray = np.array([0.299, 0.587, 0.114], np.float32)
    inside_edge, outside_edge = (p > inner_small), (outer_small > p)
    if inside_edge.any() and outside_edge.any():
        difference = colours[inside_edge].mean(axis=0) - colours[outside_edge].mean(axis=0)
        if np.linalg.norm(difference) > 12:
            axis = (difference / np.linalg.norm(difference)).astype(np.float32)
    guide = cv2.transform(colours, axis[None, :] / 255)
    k = (7, 7)
    mean_i, mean_p = cv2.blur(guide, k), cv2.blur(p, k)
    cov = cv2.blur(guide * p, k) - mean_i * mean_p
    var = cv2.blur(guide * guide, k) - mean_i * mean_i
    gain = cov / (var + 1e-3)
    coefficients = cv2.merge([cv2.blur(gain, k), cv2.blur(mean_p - gain * mean_i, k), inner_small, outer_small])
    # at full size: inside and outside from GrabCut, the band along the edge from the filter
    band_small = cv2.dilate((outer_small > inner_small).astype(np.uint8), cell)
    soft = cv2.resize((inner_small * 255).astype(np.uint8), size, interpolation=cv2.INTER_NEAREST)
    band = cv2.resize(band_small, size, interpolation=cv2.INTER_NEAREST)
    ys, xs = np.nonzero(band)
    if ys.size:
        rows = -(-ys.size // 4096)  # remap's maps are images: the points in rows of 4096
        at_x = np.zeros(rows * 4096, np.float32)
        at_y = np.zeros(rows * 4096, np.float32)
        at_x[: xs.size] = (xs + 0.5) * (cw / size[0]) - 0.5
        at_y[: ys.size] = (ys + 0.5) * (ch / size[1]) - 0.5
        sampled = cv2.remap(coefficients, at_x.reshape(rows, 4096), at_y.reshape(rows, 4096), cv2.INTER_LINEAR)
        slope, offset, inner, outer = sampled.reshape(-1, 4)[: ys.size].T
        q = slope * (crop[ys, xs].astype(np.float32) @ axis / 255) + offset
        q = (q - 0.5) * 2.5 + 0.5  # one to two pixels of transition, the photo's own edge's width
        soft[ys, xs] = (np.clip(q, inner, outer) * 255).astype(np.uint8)
    return cv2.GaussianBlur(soft, (3, 3), 0.7)  # a hard photo edge still gets a pixel of feather


# -- helpers ---------------------------------------------------------------------------------------------


def _resize(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`image` shrunk to `size` (width, height) by averaging: whole-pixel steps first, which OpenCV
    does fast, then a mild last step."""
    h, w = image.shape[:2]
    factor = min(w // size[0], h // size[1])
    if factor >= 2:
        image = cv2.resize(image, (w // factor, h // factor), interpolation=cv2.INTER_AREA)
        if image.shape[1] == size[0] and image.shape[0] == size[1]:
            return image
        return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def _reduce(rgb: np.ndarray, side: int) -> np.ndarray:
    """`rgb` with its long side at most `side`, averaged so that noise and JPEG blocks wash out."""
    h, w = rgb.shape[:2]
    if max(h, w) <= side:
        return rgb
    scale = side / max(h, w)
    return _resize(rgb, (max(1, round(w * scale)), max(1, round(h * scale))))


def _lab(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(rgb.astype(np.float32) / 255, cv2.COLOR_RGB2Lab)


def _pool(mask: np.ndarray, factor: int, shape: tuple[int, int]) -> np.ndarray:
    """Max-pool a boolean map by `factor` onto a grid of `shape` (a line stays unbroken)."""
    gh, gw = shape
    h, w = mask.shape
    if h < gh * factor or w < gw * factor:  # the grid's rounding took a last row or column more
        mask = np.pad(mask, ((0, max(0, gh * factor - h)), (0, max(0, gw * factor - w))), mode="edge")
    cut = mask[: gh * factor, : gw * factor]
    return cut.reshape(gh, factor, gw, factor).max(axis=(1, 3))


def _disk(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
