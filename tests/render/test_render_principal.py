"""The product's mask drives the gallery: the main image's framing, white border and shadow, the
angle images, the cards' cut-out product, the Medidas arrows and each image's observacoes, on the
synthetic photos of tests/render/cenarios.py.

Geometry is measured with `verdade` (recortar answering the scene's true mask), so it tests the
renderer whatever the segmentation does; the cases that depend on the service's own answer use
scenes whose answer no algorithm changes (a transparent PNG; the `inseparavel` control)."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest
from PIL import Image

from graphql_api.geracao.render import observacoes, photo
from graphql_api.geracao.render.gallery import render_gallery
from graphql_api.midia import enquadramento
from graphql_api.midia.recorte import CONFIANCA_MINIMA, NADA, Recorte
from tests.render.cenarios import CENARIOS, Cenario, cenario, variantes
from tests.render.helpers import foto_de
from tests.render.samples import rich_ficha

LADO = 800  # the scenes' side: moderate, so the tests stay quick
SIDE = 1200  # producao: no watermark over the pixels measured
BAND = round(SIDE * 0.02)
NAVY = np.array((22, 50, 79))
SEPARAVEIS = [nome for nome in CENARIOS if nome != "inseparavel"]


def _galeria(tmp_path, fotos, quantidade=1):
    return render_gallery(rich_ficha(), fotos, quantidade, "producao", tmp_path / "galeria")


def _pixels(path) -> np.ndarray:
    with Image.open(path) as img:
        return np.asarray(img.convert("RGB")).astype(np.int16)


def _esperado(c: Cenario) -> np.ndarray:
    """Where the true mask should land on the main image: long side PREENCHIMENTO, centred."""
    box = c.mascara.getbbox()
    assert box is not None
    scale = SIDE * enquadramento.PREENCHIMENTO / max(box[2] - box[0], box[3] - box[1])
    width, height = round((box[2] - box[0]) * scale), round((box[3] - box[1]) * scale)
    canvas = Image.new("L", (SIDE, SIDE), 0)
    canvas.paste(c.mascara.crop(box).resize((width, height)), ((SIDE - width) // 2, (SIDE - height) // 2))
    return np.asarray(canvas) > 127


def _numero(texto: str) -> float:
    found = re.search(r"(\d+,\d)×", texto)
    assert found, texto
    return float(found.group(1).replace(",", "."))


@pytest.mark.parametrize("nome", SEPARAVEIS)
def test_main_image_frames_the_mask_on_pure_white_with_a_soft_shadow(nome, tmp_path, verdade):
    c = cenario(nome, LADO)
    verdade(c)
    [principal] = _galeria(tmp_path, [foto_de(c, tmp_path)]).imagens
    pixels = _pixels(principal.path)
    darkest = pixels.min(axis=2)
    # The outer band is pure white, every pixel of it, after JPEG.
    band = np.ones((SIDE, SIDE), bool)
    band[BAND:-BAND, BAND:-BAND] = False
    assert darkest[band].min() >= 250
    # The product fills PREENCHIMENTO of the side, centred: what is drawn (dark or coloured; the
    # shadow is a light grey) is where the true mask should land.
    produto = _esperado(c)
    ys, xs = np.nonzero(produto)
    dy, dx = np.nonzero((darkest < 200) | (pixels.max(axis=2) - darkest > 40))
    drawn = (dx.min(), dy.min(), dx.max(), dy.max())
    assert np.abs(np.subtract(drawn, (xs.min(), ys.min(), xs.max(), ys.max()))).max() <= SIDE * 0.015
    long_side = max(drawn[2] - drawn[0], drawn[3] - drawn[1]) + 1
    assert abs(long_side / SIDE - enquadramento.PREENCHIMENTO) <= enquadramento.TOLERANCIA_PREENCHIMENTO
    # Away from the product everything is white: no backdrop left, no ring, no photo shadow.
    distance = cv2.distanceTransform((~produto).astype(np.uint8), cv2.DIST_L2, 5)
    assert darkest[distance > SIDE * 0.04].min() >= 250
    # A shadow under the product, drawn from its mask: present, subtle, and smooth.
    clear = distance > SIDE * 0.008  # past the product's soft edge (wider when it was enlarged)
    below = clear & (distance <= SIDE * 0.04) & (np.arange(SIDE)[:, None] > ys.max() - 2)
    assert darkest[below].min() < 245
    assert darkest[clear].min() >= 180
    column = round(xs[ys >= ys.max() - 2].mean())
    profile = darkest[ys.max() + 4 : ys.max() + round(SIDE * 0.04), column - 2 : column + 3].mean(axis=1)
    assert np.abs(np.diff(profile)).max() <= 8


def test_main_image_border_is_pure_white_with_the_services_own_mask(tmp_path):
    c = cenario("png_transparente", LADO)  # its transparency is the answer under any algorithm
    [principal] = _galeria(tmp_path, [foto_de(c, tmp_path)]).imagens
    darkest = _pixels(principal.path).min(axis=2)
    band = np.ones((SIDE, SIDE), bool)
    band[BAND:-BAND, BAND:-BAND] = False
    assert darkest[band].min() >= 250
    ys, xs = np.nonzero(darkest < 200)  # the blue box; the shadow stays lighter than that
    long_side = max(xs.max() - xs.min(), ys.max() - ys.min()) + 1
    assert abs(long_side / SIDE - enquadramento.PREENCHIMENTO) <= enquadramento.TOLERANCIA_PREENCHIMENTO


def test_a_faint_trail_in_the_mask_never_reaches_the_margin(tmp_path):
    """The service's own mask of a mug on a table keeps a faint trail of the table's edge beside
    the product; nothing outside the product's box is drawn, so the border stays pure white."""
    c = cenario("madeira", 1200, variantes("madeira")[1])
    [principal] = _galeria(tmp_path, [foto_de(c, tmp_path)]).imagens
    darkest = _pixels(principal.path).min(axis=2)
    band = np.ones((SIDE, SIDE), bool)
    band[BAND:-BAND, BAND:-BAND] = False
    assert darkest[band].min() >= 250


def test_an_enlarged_product_is_noted_with_how_much(tmp_path, verdade):
    pequeno = cenario("pequeno_descentrado", LADO)
    verdade(pequeno)
    principal, destaques, medidas = _galeria(tmp_path, [foto_de(pequeno, tmp_path)], 3).imagens
    [nota] = principal.notes
    assert "Produto ampliado" in nota and "envie uma foto em que o produto ocupe mais da foto" in nota
    assert _numero(nota) == pytest.approx(enquadramento.ampliacao(pequeno.lado_produto), abs=0.11)
    # the cards show it smaller, and say how much they enlarged it
    assert _numero(destaques.notes[0]) < _numero(nota) and _numero(medidas.notes[0]) < _numero(nota)


def test_a_product_with_pixels_to_spare_carries_no_observacao(tmp_path, verdade):
    grande = cenario("branco", 1600)  # its product is 1150 px: more than the 1020 it needs
    verdade(grande)
    [principal] = _galeria(tmp_path, [foto_de(grande, tmp_path)]).imagens
    assert principal.notes == []


def test_an_inseparable_principal_gives_way_to_the_next_separable_photo(tmp_path):
    inseparavel = foto_de(cenario("inseparavel", LADO), tmp_path, ordem=1)
    branco = foto_de(cenario("branco", LADO), tmp_path, ordem=2)
    principal, angulo = _galeria(tmp_path, [inseparavel, branco], 2).imagens
    assert (principal.kind, principal.foto_ordem) == ("principal", 2)
    assert any("Imagem principal feita com a foto de ordem 2" in n and "(ordem 1)" in n for n in principal.notes)
    # the inseparable photo still appears, whole, and says its backdrop was kept
    assert (angulo.kind, angulo.foto_ordem) == ("angulo", 1)
    assert angulo.notes[0] == observacoes.fundo_mantido(incerto=False, causa=NADA)
    assert angulo.notes[0].startswith("Foto usada inteira, com o fundo original: não foi possível separar")
    pixels = _pixels(angulo.path)
    band = np.ones((SIDE, SIDE), bool)
    band[BAND:-BAND, BAND:-BAND] = False
    assert pixels.min(axis=2)[band].min() >= 250  # inside the photo margin, on white
    assert pixels[SIDE // 2, SIDE // 2].min() < 230  # and the wood is there


def test_no_separable_photo_fails_the_main_image_only_and_says_why(tmp_path):
    inseparavel = foto_de(cenario("inseparavel", LADO), tmp_path)
    result = _galeria(tmp_path, [inseparavel], 3)
    [falha] = result.falhas
    assert falha.saida == "galeria-01-principal"
    assert falha.erro.startswith("GALERIA_SEM_FOTO_RECORTAVEL: nenhuma foto permite separar o produto do fundo")
    assert [i.kind for i in result.imagens] == ["destaques", "medidas"]
    for imagem in result.imagens:
        assert any(n.startswith("Foto usada inteira, com o fundo original") for n in imagem.notes)


def _extent(columns: np.ndarray) -> tuple[int, int]:
    xs = np.nonzero(columns)[0]
    assert xs.size, "nothing found"
    return int(xs.min()), int(xs.max())


@pytest.mark.parametrize("nome", ["pequeno_descentrado", "png_transparente"])
def test_medidas_width_arrow_spans_the_mask_exactly(nome, tmp_path, verdade):
    c = cenario(nome, LADO)
    if nome != "png_transparente":  # the PNG's transparency is its mask under any algorithm
        verdade(c)
    medidas = _galeria(tmp_path, [foto_de(c, tmp_path)], 3).imagens[2]
    assert medidas.kind == "medidas"
    pixels = _pixels(medidas.path)
    navy = np.abs(pixels - NAVY).max(axis=2) < 24
    body = slice(round(SIDE * 0.16), round(SIDE * 0.8))  # below the header, above the strip
    height_arrow = int(np.argmax(navy[body].sum(axis=0)))  # the column of the vertical arrow
    # the product: coloured, not navy, right of the height arrow and its label
    product_pixels = (pixels.max(axis=2) - pixels.min(axis=2) > 25) & (np.abs(pixels - NAVY).max(axis=2) > 40)
    product_pixels[:, : height_arrow + 10] = False
    rows = np.nonzero(product_pixels[body].sum(axis=1) > 3)[0] + body.start
    top, bottom = rows.min(), rows.max()
    arrow_row = bottom + 4 + int(np.argmax(navy[bottom + 4 : bottom + 60].sum(axis=1)))
    arrow = _extent(navy[arrow_row - 6 : arrow_row + 7].any(axis=0))
    product = _extent(product_pixels[top : bottom + 1].sum(axis=0) > 0)
    assert abs(arrow[0] - product[0]) <= 4 and abs(arrow[1] - product[1]) <= 4, (arrow, product)
    # Both arrows measure the true product (not its photo's shadow, 25 % wider): their ratio is
    # the true mask's.
    height = _extent(navy[body.start : arrow_row - 6, height_arrow - 6 : height_arrow + 7].any(axis=1))
    true_box = c.mascara.getbbox()
    assert true_box is not None
    aspect = (true_box[2] - true_box[0]) / (true_box[3] - true_box[1])
    assert (arrow[1] - arrow[0]) / (height[1] - height[0]) == pytest.approx(aspect, rel=0.04)


@pytest.mark.parametrize("indice,kind,share", [(1, "destaques", 0.39), (3, "conteudo", 0.34)])
def test_cards_show_the_product_cut_out_of_a_busy_photo(indice, kind, share, tmp_path, verdade):
    c = cenario("bagunca", LADO)
    verdade(c)
    imagem = _galeria(tmp_path, [foto_de(c, tmp_path)], 4).imagens[indice]
    assert imagem.kind == kind
    pixels = _pixels(imagem.path)
    top = round(SIDE * 0.2)
    photo_column = pixels[top : round(SIDE * 0.95), : round(SIDE * share)]  # left of the list
    ys, xs = np.nonzero(photo_column.min(axis=2) < 235)  # anything but white and the card's panels
    true_box = c.mascara.getbbox()
    assert true_box is not None
    # The drawn part has the bottle's proportions, not the (square) photo's: no shelf around it.
    drawn = (xs.max() - xs.min()) / (ys.max() - ys.min())
    assert drawn == pytest.approx((true_box[2] - true_box[0]) / (true_box[3] - true_box[1]), rel=0.12)


def test_a_doubtful_cut_out_is_not_trusted_and_says_so(tmp_path, monkeypatch):
    c = cenario("branco", LADO)

    def duvidoso(imagem: Image.Image) -> Recorte:  # a mask, but below the confidence a main image needs
        return Recorte(c.mascara.resize(imagem.size), CONFIANCA_MINIMA - 0.2, "teste")

    monkeypatch.setattr(photo, "recortar", duvidoso)
    result = _galeria(tmp_path, [foto_de(c, tmp_path)], 2)
    assert [f.saida for f in result.falhas] == ["galeria-01-principal"]
    [destaques] = result.imagens
    assert destaques.notes[0] == observacoes.fundo_mantido(incerto=True)
    assert "o recorte automático do produto não ficou confiável" in destaques.notes[0]
