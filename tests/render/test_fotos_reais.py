"""The cut-out on real photographs (tests/render/fotos_reais/): photos of things sellers list, from
packages that ship real photographs, with true masks drawn by hand.

What must hold for ANY method (METODOS: the classical segmenter, and any other registered there): a
main image is never delivered from a mask that is wrong, i.e. whose IoU against the true mask is
under 0.85 (zero confident-but-wrong). How many photos each method does cut out, and how well, is
bench/qualidade_midia.py's table: those are targets, not rules."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.render.cenarios import iou
from tests.render.fotos_reais import (
    METODOS,
    VARIANTES,
    Resultado,
    caso,
    casos,
    confiante_e_errado,
    faltando,
    foto_real,
    pasta_artefatos,
    poligonos,
)

LICENCAS = ("CC0", "domínio público", "BSD-3-Clause", "MIT", "Apache-2.0")

_faltam = faltando()
precisa_das_fotos = pytest.mark.skipif(
    bool(_faltam), reason=f"fotos reais não instaladas ({', '.join(_faltam[:3])}…): rode scripts/install --test"
)


def test_the_set_has_product_photos_and_hard_ones():
    todos = casos()
    assert len({c.nome for c in todos}) == len(todos)
    assert len([c for c in todos if c.separavel]) >= 12
    assert len([c for c in todos if c.dificil]) >= 6
    assert len({c.artefato for c in todos}) >= 10  # distinct photographs, not only crops of a few
    assert any(not c.separavel for c in todos)  # some a person would not cut out either
    for c in todos:
        assert c.licenca.startswith(LICENCAS), c.nome
        assert c.formato in ("jpeg", "png") and 800 <= c.lado <= 2000, c.nome


def test_every_mask_is_drawn_inside_its_crop():
    for c in casos():
        x0, y0, x1, y1 = c.recorte
        partes = poligonos(c.nome)
        assert partes["produto"], c.nome
        for poly in partes["produto"] + partes["furos"]:
            assert len(poly) >= 3, c.nome
            for x, y in poly:
                assert -0.5 <= x <= x1 - x0 + 0.5 and -0.5 <= y <= y1 - y0 + 0.5, (c.nome, x, y)


@precisa_das_fotos
@pytest.mark.parametrize("nome", [c.nome for c in casos()])
def test_the_photo_arrives_at_its_listing_size_with_a_mask_of_its_product(nome):
    foto = foto_real(nome)
    imagem, c = foto.imagem, caso(nome)
    with Image.open(pasta_artefatos() / c.artefato) as original:  # the crop lies inside the photo
        assert c.recorte[2] <= original.width and c.recorte[3] <= original.height, original.size
    assert max(imagem.size) == c.lado
    assert imagem.format == c.formato.upper()
    assert foto.mascara.size == imagem.size and foto.mascara.mode == "L"
    share = (np.asarray(foto.mascara) > 127).mean()
    assert 0.01 < share < 0.9, share  # a product, not the empty frame nor the whole of it
    assert iou(foto.mascara, foto.mascara.resize((500, 500)).resize(imagem.size)) > 0.9  # no speckle


@pytest.fixture(scope="module")
def resultados() -> dict[tuple[str, str], Resultado]:
    """Each method on each photo, once for the module."""
    return {}


def _resultado(resultados, metodo: str, nome: str, lado: int | None = None, formato: str | None = None) -> Resultado:
    chave = (metodo, nome, lado, formato)
    if chave not in resultados:
        resultados[chave] = METODOS[metodo](foto_real(nome, lado, formato).imagem)
    return resultados[chave]


# Confident-but-wrong today: (metodo, caso, lado, formato). Each entry goes when the method stops
# doing it (strict: a fixed one fails here until it is removed). The classical cut of the cup alone
# sent small (560 px PNG) was one, as the issue that asked for this set found: cut at one working
# size, whatever the photo's, it is refused like the same photo at its listing size.
CONHECIDOS: set[tuple[str, str, int | None, str | None]] = set()


def _casos_e_variantes():
    for metodo in METODOS:
        for c in casos():
            for lado, formato in VARIANTES:
                marks = [pytest.mark.xfail(strict=True, reason="confiante e errada hoje")] * (
                    (metodo, c.nome, lado, formato) in CONHECIDOS
                )
                yield pytest.param(
                    metodo,
                    c.nome,
                    lado,
                    formato,
                    marks=marks,
                    id=f"{metodo}-{c.nome}-{lado or c.lado}-{formato or c.formato}",
                )


@precisa_das_fotos
@pytest.mark.parametrize(("metodo", "nome", "lado", "formato"), list(_casos_e_variantes()))
def test_no_main_image_comes_from_a_wrong_mask(metodo, nome, lado, formato, resultados):
    foto = foto_real(nome, lado, formato)
    r = _resultado(resultados, metodo, nome, lado, formato)
    assert 0.0 <= r.confianca <= 1.0
    if r.principal:
        assert r.mascara is not None and r.mascara.size == foto.imagem.size
    assert not confiante_e_errado(r, foto.mascara), f"{metodo} confiou num recorte errado de {nome}"


@precisa_das_fotos
@pytest.mark.parametrize("metodo", list(METODOS))
def test_a_photo_nobody_could_cut_out_gives_no_main_image(metodo, resultados):
    for c in casos():
        if not c.separavel:
            assert not _resultado(resultados, metodo, c.nome).principal, c.nome


@precisa_das_fotos
def test_the_rule_catches_a_method_that_trusts_a_wrong_mask():
    """The true mask passes; the whole frame, or the product shifted off itself, trusted, is caught."""
    foto = foto_real("maca")
    largura, altura = foto.imagem.size
    verdade = Resultado(foto.mascara, 1.0, True)
    moldura = Resultado(Image.new("L", foto.imagem.size, 255), 1.0, True)
    deslocada = Resultado(
        foto.mascara.transform(foto.imagem.size, Image.Transform.AFFINE, (1, 0, largura // 4, 0, 1, 0)), 0.95, True
    )
    assert not confiante_e_errado(verdade, foto.mascara)
    assert confiante_e_errado(moldura, foto.mascara)
    assert confiante_e_errado(deslocada, foto.mascara)
    assert not confiante_e_errado(Resultado(moldura.mascara, 0.5, False), foto.mascara)  # refused: no harm
