"""Shared renders: each expensive render happens once per test session."""

from __future__ import annotations

import pytest
from PIL import Image

from graphql_api.geracao.render import photo
from graphql_api.geracao.render.gallery import render_gallery
from graphql_api.geracao.render.video import render_video
from graphql_api.midia.recorte import Recorte
from tests.render.cenarios import Cenario
from tests.render.samples import make_fotos, rich_ficha


@pytest.fixture(scope="session")
def fotos(tmp_path_factory):
    return make_fotos(tmp_path_factory.mktemp("fotos"), count=6, size=(1200, 1200))


@pytest.fixture(scope="session")
def rich_gallery_teste(fotos, tmp_path_factory):
    return render_gallery(rich_ficha(), fotos, 8, "teste", tmp_path_factory.mktemp("galeria-teste"))


@pytest.fixture(scope="session")
def apresentacao_teste(fotos, tmp_path_factory):
    return render_video(
        rich_ficha(), fotos, "apresentacao", "automatico", "teste", tmp_path_factory.mktemp("video-teste")
    )


@pytest.fixture
def verdade(monkeypatch):
    """Make recortar() answer a scene's true mask: the renderers' own work, measured apart from
    the segmentation's (which has its own tests). `verdade(cenario)` switches it on."""

    def usar(cenario: Cenario) -> None:
        def recortar(imagem: Image.Image) -> Recorte:
            return Recorte(cenario.mascara.resize(imagem.size, Image.Resampling.BILINEAR), 1.0, "verdade")

        monkeypatch.setattr(photo, "recortar", recortar)

    return usar
