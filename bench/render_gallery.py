"""Gallery rendering time and memory: 7 production images (1200×1200) from a rich ficha with
six 2000×2000 camera-size photos, in one run of a fresh process.

    .venv/bin/python bench/render_gallery.py
    .venv/bin/python bench/render_gallery.py --quantidade 8 --ambiente teste

Targets: under 2.5 s in total on the 2-core machine; peak memory under 400 MB."""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphql_api.geracao.render.gallery import render_gallery  # noqa: E402
from tests.render.samples import make_fotos, rich_ficha  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quantidade", type=int, default=7)
    parser.add_argument("--ambiente", default="producao", choices=("producao", "teste"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fotos = make_fotos(Path(tmp) / "fotos", count=6, size=(2000, 2000))
        ficha = rich_ficha()
        started = time.perf_counter()
        result = render_gallery(ficha, fotos, args.quantidade, args.ambiente, Path(tmp) / "galeria")
        total = time.perf_counter() - started
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"gallery: {len(result.imagens)} images, {args.ambiente}")
        for imagem in result.imagens:
            size_kb = imagem.path.stat().st_size / 1024
            print(
                f"  {imagem.posicao}. {imagem.kind:<11} {imagem.largura}x{imagem.altura}  "
                f"{imagem.seconds * 1000:6.0f} ms  {size_kb:5.0f} KB"
            )
        composed = sum(i.seconds for i in result.imagens)
        print(
            f"  (images are composed two at a time; their times add up to {composed:.2f} s; the rest of "
            f"the wall time is decoding the photos and cutting the product out)"
        )
        print(f"total wall time: {total:.2f} s   (target: < 2.5 s for 7 production images)")
        print(f"peak memory (RSS of this process): {peak_mb:.0f} MB   (target: < 400 MB)")


if __name__ == "__main__":
    main()
