"""Drawing a true mask by hand: the crop of a case, magnified, with a coordinate grid (the crop's
own pixels at the source's resolution) and the polygons of mascaras/<nome>.json traced over it with
their vertices numbered. Look at the picture, move the points that are off, draw again.

    .venv/bin/python -m tests.render.fotos_reais desenhar cafe-conjunto
    .venv/bin/python -m tests.render.fotos_reais desenhar cafe-conjunto --zoom 4 --vista 60 0 300 140
    .venv/bin/python -m tests.render.fotos_reais desenhar cafe-conjunto --saida /tmp/x.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from PIL import Image, ImageDraw

from tests.render.fotos_reais import PASTA, caso, fonte, mascara, poligonos

CORES = {"produto": (0, 255, 0), "furos": (255, 0, 255)}


def desenhar(
    nome: str, zoom: float, vista: tuple[int, int, int, int] | None, grade: int, tinta: bool = False
) -> Image.Image:
    c = caso(nome)
    crop = fonte(c)
    x0, y0, x1, y1 = vista or (0, 0, crop.width, crop.height)
    tamanho = (round((x1 - x0) * zoom), round((y1 - y0) * zoom))
    imagem = crop.crop((x0, y0, x1, y1)).resize(tamanho, Image.Resampling.LANCZOS)
    if tinta:  # the mask as a red tint over the photo, no vertices: is it the product, all of it?
        inteira = mascara(c, (round(crop.width * zoom), round(crop.height * zoom)))
        parte = inteira.crop(
            (round(x0 * zoom), round(y0 * zoom), round(x0 * zoom) + tamanho[0], round(y0 * zoom) + tamanho[1])
        )
        vermelho = Image.new("RGB", tamanho, (255, 0, 0))
        return Image.composite(Image.blend(imagem, vermelho, 0.45), imagem, parte)
    d = ImageDraw.Draw(imagem)
    for x in range(x0 - x0 % grade + grade, x1, grade):
        forte = x % (grade * 5) == 0
        d.line([((x - x0) * zoom, 0), ((x - x0) * zoom, imagem.height)], fill=(0, 160, 160), width=1 + forte)
        if forte:
            d.text(((x - x0) * zoom + 2, 2), str(x), fill=(255, 255, 0))
    for y in range(y0 - y0 % grade + grade, y1, grade):
        forte = y % (grade * 5) == 0
        d.line([(0, (y - y0) * zoom), (imagem.width, (y - y0) * zoom)], fill=(0, 160, 160), width=1 + forte)
        if forte:
            d.text((2, (y - y0) * zoom + 2), str(y), fill=(255, 255, 0))
    if (PASTA / "mascaras" / f"{nome}.json").exists():
        for chave, polys in poligonos(nome).items():
            for poly in polys:
                pontos = [((x - x0) * zoom, (y - y0) * zoom) for x, y in poly]
                d.line([*pontos, pontos[0]], fill=CORES[chave], width=1)
                for i, (px, py) in enumerate(pontos):
                    d.ellipse([px - 2, py - 2, px + 2, py + 2], fill=(255, 255, 0))
                    d.text((px + 3, py + 1), str(i), fill=(255, 255, 0))
    return imagem


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="comando", required=True)
    p = sub.add_parser("desenhar", help="the crop with its grid and the mask's polygons")
    p.add_argument("nome")
    p.add_argument("--zoom", type=float, default=2.0)
    p.add_argument("--vista", type=int, nargs=4, metavar=("X0", "Y0", "X1", "Y1"), help="part of the crop")
    p.add_argument("--grade", type=int, default=10, help="grid step in the crop's pixels")
    p.add_argument("--tinta", action="store_true", help="the mask as a tint, without grid nor vertices")
    p.add_argument("--saida", type=Path, default=None, help="default: /tmp/<nome>-desenho.png")
    args = parser.parse_args()
    saida = args.saida or Path(f"/tmp/{args.nome}-desenho.png")
    desenhar(args.nome, args.zoom, tuple(args.vista) if args.vista else None, args.grade, args.tinta).save(saida)
    print(json.dumps({"saida": str(saida)}))


if __name__ == "__main__":
    main()
