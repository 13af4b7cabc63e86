"""Regenerates the small samples in docs/samples/ (teste renders: reduced size, AMOSTRA) from the
drawn product photos and the rich ficha of the render tests.

    .venv/bin/python scripts/render_samples.py"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphql_api.geracao.render import apply_edits, render_gallery, render_video  # noqa: E402
from graphql_api.geracao.schemas import parse_edicao  # noqa: E402
from tests.render.samples import make_fotos, rich_ficha  # noqa: E402

OUT = ROOT / "docs" / "samples"
GALLERY_KEEP = ("principal", "destaques", "medidas", "avaliacoes")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        fotos = make_fotos(work / "fotos", count=6, size=(1600, 1600))
        galeria = render_gallery(rich_ficha(), fotos, 8, "teste", work / "galeria")
        for imagem in galeria.imagens:
            if imagem.kind in GALLERY_KEEP:
                shutil.copy(imagem.path, OUT / f"galeria-teste-{imagem.posicao:02d}-{imagem.kind}.jpg")
        video = render_video(rich_ficha(), fotos, "apresentacao", "automatico", "teste", work / "video")
        shutil.copy(video.videos[0].path, OUT / "video-apresentacao-teste.mp4")
        shutil.copy(video.legenda, OUT / "video-apresentacao-teste.vtt")
        pedido = parse_edicao({"operacoes": [
            {"tipo": "fundo_branco"},
            {"tipo": "enquadrar", "formato": "retrato_1080x1350", "modo": "produto", "margem": 8},
            {"tipo": "texto", "texto": "Mantém quente por 12 horas", "posicao": "rodape"},
            {"tipo": "selo", "texto": "-20%", "posicao": "superior_direito"},
        ]})
        apply_edits(fotos[1].path, pedido, "teste", OUT / "edicao-teste.jpg")
    for path in sorted(OUT.iterdir()):
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
