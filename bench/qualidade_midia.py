"""Media quality on synthetic photos with known masks (tests/render/cenarios.py), at production
size: for every scene, the cut-out (mask IoU against the truth, the service's own confidence, its
time) and the main image made from the photo by the public renderer (border purity, product fill,
sharpness after scaling).

    .venv/bin/python bench/qualidade_midia.py                # 1600 px photos, 3 rounds
    .venv/bin/python bench/qualidade_midia.py --lado 1000 --rodadas 5
    .venv/bin/python bench/qualidade_midia.py --variantes    # and 3 variants of each scene

Targets (checked per row, PASS/FAIL):
- IoU >= 0.90 and `separavel` on every scene but the inseparable control, which must not be
  `separavel` (and then no main image is made from it);
- main image: 100 % of the 2 % outer band pure white (every channel >= 250) and the product's long
  side 85 % +- 3 of the side;
- sharpness after scaling is printed against the clean white scene's (no target: a small product
  enlarged is softer, which the image's `observacoes` say).
Timings: each round, then the median; a machine-speed line to compare days."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphql_api.geracao.render.gallery import render_gallery  # noqa: E402
from graphql_api.geracao.render.types import FotoAprovada, RenderError  # noqa: E402
from graphql_api.midia.enquadramento import PREENCHIMENTO, TOLERANCIA_PREENCHIMENTO  # noqa: E402
from graphql_api.midia.recorte import recortar  # noqa: E402
from tests.render.cenarios import CENARIOS, Cenario, cenario, iou, variantes  # noqa: E402
from tests.render.samples import sparse_ficha  # noqa: E402

BAND = 0.02
WHITE = 250
PRODUCT = 60  # channel difference from white that counts as product (the drawn shadow stays lighter)


def reference_loop_ns(rounds: int = 200_000) -> float:
    started = time.perf_counter_ns()
    for _ in range(rounds):
        sum(range(50))
    return (time.perf_counter_ns() - started) / rounds


def border_purity(pixels: np.ndarray) -> float:
    side = pixels.shape[0]
    band = max(1, round(side * BAND))
    ring = np.ones(pixels.shape[:2], bool)
    ring[band:-band, band:-band] = False
    return float((pixels[ring].min(axis=1) >= WHITE).mean())


def product_region(pixels: np.ndarray) -> tuple[int, int, int, int] | None:
    ink = (255 - pixels.min(axis=2)) > PRODUCT
    ys, xs = np.nonzero(ink)
    if not len(xs):
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def sharpness(pixels: np.ndarray, box: tuple[int, int, int, int]) -> float:
    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
    x0, y0, x1, y1 = box
    return float(cv2.Laplacian(grey[y0:y1, x0:x1], cv2.CV_64F).var())


def main_image(cenario: Cenario, folder: Path) -> dict:
    """The principal image the renderer makes from this one photo, measured."""
    extension = "png" if cenario.dados.startswith(b"\x89PNG") else "jpg"
    path = folder / f"{cenario.nome.replace('/', '-')}.{extension}"
    path.write_bytes(cenario.dados)
    width, height = cenario.mascara.size
    foto = FotoAprovada(path, 1, True, width, height)
    try:
        result = render_gallery(sparse_ficha(), [foto], 1, "producao", folder / cenario.nome.replace("/", "-"))
    except RenderError as exc:
        return {"feita": False, "motivo": "; ".join(f.erro for f in exc.falhas)}
    image = result.imagens[0]
    pixels = np.asarray(Image.open(image.path).convert("RGB"))
    box = product_region(pixels)
    fill = max(box[2] - box[0], box[3] - box[1]) / pixels.shape[0] if box else 0.0
    return {
        "feita": True,
        "borda": border_purity(pixels),
        "preenchimento": fill,
        "nitidez": sharpness(pixels, box) if box else 0.0,
        "observacoes": image.notes,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lado", type=int, default=1600, help="side of the synthetic photos")
    parser.add_argument("--rodadas", type=int, default=3)
    parser.add_argument("--variantes", action="store_true", help="also three variants of each scene (tuning guard)")
    args = parser.parse_args()
    print(f"machine speed: sum(range(50)) in {reference_loop_ns():.0f} ns (lower is faster)")
    print(f"photos {args.lado} px; cut-out time: {args.rodadas} rounds each, then the median\n")
    cenarios = [make(args.lado) for make in CENARIOS.values()]
    if args.variantes:  # other noise, colour, place and size: a method tuned to the scenes shows here
        cenarios += [
            replace(cenario(nome, args.lado, v), nome=f"{nome}/{i}")
            for nome in CENARIOS
            for i, v in enumerate(variantes(nome), start=1)
        ]
    times: dict[str, list[float]] = {c.nome: [] for c in cenarios}
    results = {}
    for _ in range(args.rodadas):  # rounds interleave the scenes: a slow spell hits them alike
        for c in cenarios:
            image = c.imagem
            started = time.perf_counter()
            results[c.nome] = recortar(image)
            times[c.nome].append(time.perf_counter() - started)
    failures = 0
    reference = None
    header = f"{'cena':<22} {'IoU':>6} {'conf':>5} {'sep':>5} {'ms (rodadas)':<24} {'borda':>6} {'preench':>8} {'nitidez':>8}  veredito"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for c in cenarios:
            recorte = results[c.nome]
            score = iou(recorte.mascara, c.mascara) if recorte.mascara is not None else 0.0
            image = main_image(c, Path(tmp))
            if c.nome == "branco" and image["feita"]:
                reference = image["nitidez"]
            problems = []
            if c.separavel:
                if score < 0.90:
                    problems.append("IoU < 0,90")
                if not recorte.separavel:
                    problems.append("não separável")
                if not image["feita"]:
                    problems.append("imagem principal não feita")
                else:
                    if image["borda"] < 1.0:
                        problems.append("borda não é 100 % branca")
                    if abs(image["preenchimento"] - PREENCHIMENTO) > TOLERANCIA_PREENCHIMENTO + 1e-9:
                        problems.append("preenchimento fora de 85 % ± 3")
            else:
                if recorte.separavel:
                    problems.append("controle dado como separável")
                if image["feita"]:
                    problems.append("imagem principal feita de foto inseparável")
            failures += bool(problems)
            rounds = " ".join(f"{t * 1000:.0f}" for t in times[c.nome])
            ms = f"{statistics.median(times[c.nome]) * 1000:.0f} ({rounds})"
            if image["feita"]:
                made = f"{image['borda']:6.1%} {image['preenchimento']:8.1%} {image['nitidez']:8.0f}"
            else:
                made = f"{'—':>6} {'—':>8} {'—':>8}"
            verdict = "PASS" if not problems else "FAIL: " + ", ".join(problems)
            print(
                f"{c.nome:<22} {score:6.3f} {recorte.confianca:5.2f} {recorte.separavel!s:>5} {ms:<24} {made}  {verdict}"
            )
            for note in image.get("observacoes") or []:
                print(f"{'':<22}observação: {note}")
            if not image["feita"]:
                print(f"{'':<22}não feita: {image['motivo'][:150]}")
    if reference:
        print(f"\nsharpness reference (branco): {reference:.0f}; a smaller figure is a softer product")
    all_times = [statistics.median(t) for t in times.values()]
    print(
        f"cut-out time, median per scene: {statistics.median(all_times) * 1000:.0f} ms; worst {max(all_times) * 1000:.0f} ms"
    )
    print(f"\n{len(cenarios) - failures}/{len(cenarios)} scenes PASS")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
