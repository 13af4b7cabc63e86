"""The cut-out on synthetic photos with known masks: every kind of photo a seller sends is cut out
with IoU >= 0.90 and the service says it trusts it; the inseparable control is refused; the
photos the rest of the suite uses stay separable."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from graphql_api.midia.recorte import CONFIANCA_MINIMA, recortar
from tests.photos import photo
from tests.render.cenarios import CENARIOS, cenario, iou

SIDE = 900


@pytest.mark.parametrize("nome", [n for n in CENARIOS if n != "inseparavel"])
def test_every_kind_of_photo_is_cut_out_and_trusted(nome):
    c = cenario(nome, SIDE)
    recorte = recortar(c.imagem)
    assert recorte.mascara is not None and recorte.mascara.size == c.mascara.size
    assert iou(recorte.mascara, c.mascara) >= 0.90
    assert recorte.separavel and recorte.confianca >= CONFIANCA_MINIMA


def test_the_inseparable_control_is_not_trusted():
    recorte = recortar(cenario("inseparavel", SIDE).imagem)
    assert not recorte.separavel


def test_a_transparent_png_is_cut_by_its_alpha():
    c = cenario("png_transparente", SIDE)
    recorte = recortar(c.imagem)
    assert recorte.metodo == "transparencia"
    assert iou(recorte.mascara, c.mascara) > 0.999


def test_shadow_reflection_and_banner_are_not_product():
    for nome in ("branco", "reflexivo", "texto_sobreposto"):
        c = cenario(nome, SIDE)
        recorte = recortar(c.imagem)
        true_box, box = c.mascara.getbbox(), recorte.caixa
        assert box is not None and true_box is not None
        # the box is the product's: no shadow below, no floor reflection, no banner above
        assert all(abs(a - b) <= SIDE * 0.02 for a, b in zip(box, true_box, strict=True)), (nome, box, true_box)


@pytest.mark.parametrize("fundo", ["white", "escuro", "cena"])
def test_the_suites_product_photos_stay_separable(fundo):
    image = Image.open(io.BytesIO(photo(3, size=800, fundo=fundo)))
    assert recortar(image).separavel
