"""Text over a product photo, read by Tesseract and judged against the product's mask, on real
encoded synthetic photos: banners, a shop's name and @handles are overlays; a label printed on the
product is not; OCR noise, a missing or slow Tesseract never break the check."""

import io

import pytest
from PIL import Image, ImageDraw, ImageFont

from graphql_api.midia import sobreposicao
from graphql_api.midia.recorte import recortar
from graphql_api.midia.sobreposicao import Leitura, ler
from tests.photos import photo, rotulada
from tests.render.cenarios import FONT_BOLD, cenario


def working(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    image.thumbnail((1000, 1000))
    return image


def read(data: bytes) -> Leitura:
    image = working(data)
    return ler(image, recortar(image))


def drawn_over_branco(text: str, *, at: str, fill: tuple[int, int, int, int]) -> bytes:
    """The bottle on white with `text` drawn over it: across the bottle's right edge, or in the
    bottom-right corner (a watermark)."""
    scene = cenario("branco", 1200)
    x0, y0, x1, y1 = scene.mascara.getbbox()
    image = scene.imagem.convert("RGBA")
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    font = ImageFont.truetype(FONT_BOLD, 54)
    if at == "borda":
        ImageDraw.Draw(layer).text(
            (x1 - (x1 - x0) * 0.3, y0 + (y1 - y0) * 0.3), text, font=font, fill=fill, anchor="lm"
        )
    else:
        ImageDraw.Draw(layer).text((1160, 1150), text, font=font, fill=fill, anchor="rb")
    out = io.BytesIO()
    Image.alpha_composite(image, layer).convert("RGB").save(out, "JPEG", quality=88)
    return out.getvalue()


def test_a_banner_a_shop_name_and_a_handle_are_read_as_overlays():
    leitura = read(cenario("texto_sobreposto", 1200).dados)
    assert leitura.lida and leitura.sobreposto
    for word in ("FRETE", "GRÁTIS", "Loja", "Utilidades", "@lojadaana"):
        assert word in leitura.texto.split(), leitura.palavras
    frete = next(p for p in leitura.palavras if p.texto == "FRETE")
    assert frete.sobreposta and frete.confianca >= sobreposicao.MIN_CONFIANCA
    x0, y0, x1, y1 = frete.caixa
    assert 0 <= x0 < x1 <= 620 and 0 <= y0 < y1 <= 100  # on the red banner (top 10 %, left 62 %)


def test_a_label_printed_on_the_product_is_read_but_is_not_an_overlay():
    leitura = read(rotulada())
    assert "CAFÉ" in [p.texto for p in leitura.palavras]
    assert not any(p.sobreposta for p in leitura.palavras) and not leitura.sobreposto and leitura.texto == ""


def test_text_crossing_the_products_edge_and_a_faint_corner_watermark_are_overlays():
    crossing = read(drawn_over_branco("PROMOÇÃO", at="borda", fill=(20, 20, 20, 255)))
    assert crossing.sobreposto and "OMO" in crossing.texto
    watermark = read(drawn_over_branco("@lojadaana", at="canto", fill=(0, 0, 0, 60)))  # 24 % opaque
    assert watermark.texto == "@lojadaana"


def test_without_a_trusted_mask_only_words_along_the_edges_are_overlays():
    image = working(rotulada())
    label = ler(image, None)  # as if the background could not be told apart
    assert "CAFÉ" in [p.texto for p in label.palavras] and not label.sobreposto  # in the middle
    banner = ler(working(cenario("texto_sobreposto", 1200).dados), None)
    assert banner.sobreposto and "FRETE" in banner.texto


@pytest.mark.parametrize("nome", ["branco", "madeira", "bagunca", "inseparavel", "reflexivo", "png_transparente"])
def test_photos_without_text_are_not_sent_to_tesseract(nome, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("Tesseract was started")

    monkeypatch.setattr(sobreposicao.pytesseract, "image_to_data", forbidden)
    leitura = read(cenario(nome, 1200).dados)
    assert leitura.palavras == () and leitura.lida and not leitura.sobreposto


def test_the_test_suites_product_photos_have_no_overlay():
    for seed in (1, 2, 3, 10):
        assert read(photo(seed)).texto == ""


@pytest.mark.parametrize(
    "word, real",
    [
        ("FRETE", True),
        ("-30%", True),
        ("@lojadaana", True),
        ("R$", False),
        ("da", True),
        ("a", False),
        ("|", False),
        ("EEE", False),
        ("rrt", False),
        ("[E", False),
        ("500", True),
        ("Ana", True),
        ("ç$%#", False),
    ],
)
def test_ocr_noise_is_not_a_word(word, real):
    assert sobreposicao._real_word(sobreposicao._clean(word)) is real


def test_a_slow_or_missing_tesseract_leaves_the_photo_unread_instead_of_failing(monkeypatch):
    data = cenario("texto_sobreposto", 1200).dados
    monkeypatch.setattr(sobreposicao, "TEMPO_MAXIMO", 0.001)
    slow = read(data)
    assert not slow.lida and slow.palavras == () and slow.texto == ""
    monkeypatch.setattr(sobreposicao, "TEMPO_MAXIMO", 5.0)
    monkeypatch.setattr(sobreposicao.pytesseract.pytesseract, "tesseract_cmd", "/nao/existe/tesseract")
    missing = read(data)
    assert not missing.lida and missing.palavras == ()
