"""Measuring photos: format sniffing, decompression bombs, sharpness, the perceptual hash, the
product's cut-out and the text over the photo, on real encoded images."""

import io

import pytest
from PIL import Image

from graphql_api.conferencia.analise import VERSAO, ImagemRecusada, Medidas, distancia, medir
from graphql_api.conferencia.catalog import MAX_DISTANCIA_DUPLICADA, MIN_NITIDEZ
from graphql_api.midia.recorte import CONFIANCA_MINIMA
from tests.photos import bomb_png, photo, rotulada
from tests.render.cenarios import cenario


def encode(image: Image.Image, fmt: str = "PNG", **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def refused(data: bytes) -> str:
    with pytest.raises(ImagemRecusada) as error:
        medir(data)
    return error.value.codigo


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_sharp_product_on_white_is_measured_in_every_format(fmt):
    m = medir(photo(1, fmt=fmt))
    assert (m.formato, m.largura, m.altura) == (fmt, 1200, 1200)
    assert m.nitidez > 10 * MIN_NITIDEZ and len(m.hash) == 64
    assert m.versao == VERSAO and m.separavel and m.texto_sobreposto == ""


def test_blur_is_measured_not_guessed():
    sharp, soft, blurred = (medir(photo(2, blur=b)).nitidez for b in (0, 1.5, 6))
    assert sharp > soft > blurred
    assert blurred < MIN_NITIDEZ < soft


def test_large_jpeg_is_decoded_at_reduced_scale_but_reports_its_real_size():
    m = medir(photo(3, size=2400))
    assert (m.largura, m.altura) == (2400, 2400) and m.nitidez > MIN_NITIDEZ


def test_exif_rotation_swaps_the_reported_size():
    image = Image.open(io.BytesIO(photo(4))).resize((1200, 800))
    exif = Image.Exif()
    exif[0x0112] = 6  # shown rotated 90°
    m = medir(encode(image, "JPEG", exif=exif))
    assert (m.largura, m.altura) == (800, 1200)


def test_near_duplicates_are_close_and_different_products_are_far():
    original = medir(photo(5)).hash
    copy = medir(photo(5, copia=700, quality=60)).hash
    other = medir(photo(6)).hash
    assert distancia(original, copy) <= MAX_DISTANCIA_DUPLICADA < distancia(original, other)


def test_the_products_cut_out_is_measured_in_the_photos_own_pixels():
    # a plain background of any colour can be cut out
    for fundo in ("white", "escuro", "cena"):
        m = medir(photo(7, fundo=fundo))
        assert m.separavel and m.recorte_confianca >= CONFIANCA_MINIMA, fundo
    # the product's long side, measured on the working copy, is given in the photo's pixels
    scene = cenario("png_transparente", 1200)
    small, large = medir(scene.dados), medir(cenario("png_transparente", 2400).dados)
    assert small.lado_produto == pytest.approx(scene.lado_produto, rel=0.01)
    assert large.lado_produto == pytest.approx(2 * small.lado_produto, rel=0.01)
    # a box on the same wood: no cut-out, so no product size either
    inseparavel = medir(cenario("inseparavel", 1200).dados)
    assert inseparavel.separavel is False and inseparavel.recorte_confianca < CONFIANCA_MINIMA
    assert inseparavel.lado_produto is None


def test_text_over_the_photo_is_kept_short_and_a_label_is_not_kept():
    m = medir(cenario("texto_sobreposto", 1200).dados)
    assert "FRETE" in m.texto_sobreposto and "@lojadaana" in m.texto_sobreposto
    assert medir(rotulada()).texto_sobreposto == ""


def test_measures_of_an_older_analysis_still_load():
    stored = medir(photo(7)).as_dict()
    old = {k: stored[k] for k in ("formato", "largura", "altura", "nitidez", "hash")} | {"fundo_claro": 0.97}
    m = Medidas.from_dict(old)
    assert (m.versao, m.separavel, m.lado_produto, m.texto_sobreposto) == (0, None, None, None)
    assert Medidas.from_dict(stored) == medir(photo(7))


def test_unusual_modes_are_handled():
    for image in (Image.new("I;16", (800, 600), 30000), Image.new("P", (600, 600)), Image.new("LA", (600, 600))):
        m = medir(encode(image))
        assert (m.largura, m.altura) == image.size


def test_bad_bytes_get_their_reason():
    assert refused(b"<!doctype html><html><body>404</body></html>") == "FOTO_NAO_E_IMAGEM"
    assert refused(b"") == "FOTO_NAO_E_IMAGEM"
    assert refused(encode(Image.new("RGB", (600, 600)), "GIF")) == "FOTO_NAO_E_IMAGEM"
    whole = photo(8)
    assert refused(whole[: len(whole) * 2 // 3]) == "FOTO_CORROMPIDA"
    assert refused(whole[:200]) == "FOTO_CORROMPIDA"


def test_decompression_bombs_are_refused_before_decoding():
    small_file = bomb_png(6000)  # 36 megapixels in a few kilobytes
    assert len(small_file) < 100_000
    assert refused(small_file) == "FOTO_DIMENSOES_EXCESSIVAS"
    assert refused(bomb_png(20000)) == "FOTO_DIMENSOES_EXCESSIVAS"  # beyond Pillow's own guard too
    # 13 megapixels with transparency would take over 100 MB to decode and shrink (the budget is 60)
    assert refused(encode(Image.new("RGBA", (3600, 3600), (255, 255, 255, 0)))) == "FOTO_DIMENSOES_EXCESSIVAS"


def test_a_large_jpeg_is_within_the_memory_budget_thanks_to_reduced_scale_decoding():
    m = medir(encode(Image.new("RGB", (6000, 4000), "white"), "JPEG"))  # 24 megapixels
    assert (m.largura, m.altura) == (6000, 4000)
