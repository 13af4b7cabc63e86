"""Galleries: kinds the ficha supports, real renders, sizes, watermark, no text overflow."""

from dataclasses import replace

import pytest
from PIL import Image, ImageStat

from graphql_api.geracao.render.gallery import available_kinds, plan_gallery, render_gallery
from graphql_api.geracao.render.photo import prepare
from graphql_api.geracao.render.types import RenderError
from tests.render.cenarios import cenario
from tests.render.helpers import assert_legible, assert_no_overflow, foto_de, watermark_contrast
from tests.render.samples import extreme_ficha, rich_ficha, sparse_ficha

INFO = ["destaques", "medidas", "conteudo", "garantia", "avaliacoes", "perguntas"]


def test_kinds_follow_what_the_ficha_supports(fotos):
    assert available_kinds(rich_ficha(), []) == []
    assert available_kinds(sparse_ficha(), fotos[:1]) == ["principal"]
    assert available_kinds(sparse_ficha(), fotos[:3]) == ["principal", "angulo", "angulo"]
    assert available_kinds(rich_ficha(), fotos[:3]) == ["principal", "angulo", *INFO, "angulo"]
    only_reviews = {"nome": "X", "avaliacoes": [{"nota": 4}]}
    assert available_kinds(only_reviews, fotos[:1]) == ["principal", "avaliacoes"]
    weight_only = {"nome": "X", "dimensoes": {"pesoLiquido": 3, "unidadePeso": "kg"}}
    assert available_kinds(weight_only, fotos[:1]) == ["principal"]
    assert len(available_kinds(extreme_ficha(), fotos * 3)) == 12  # never more than 12


def test_a_bigger_gallery_only_adds_images(fotos):
    kinds = available_kinds(rich_ficha(), fotos)
    for n in range(1, len(kinds) + 1):
        assert [p.kind for p in plan_gallery(rich_ficha(), fotos, n)] == kinds[:n]
    with pytest.raises(ValueError):
        plan_gallery(rich_ficha(), fotos, len(kinds) + 1)
    with pytest.raises(ValueError):
        plan_gallery(rich_ficha(), fotos, 0)


def test_angles_use_the_other_photos_in_order(fotos):
    reordered = [fotos[2], fotos[0], fotos[1]]  # input order does not matter, ordem does
    plan = plan_gallery(sparse_ficha(), reordered, 3)
    assert [p.foto.ordem for p in plan] == [1, 2, 3]


def test_teste_gallery_is_reduced_watermarked_and_complete(rich_gallery_teste):
    imagens = rich_gallery_teste.imagens
    assert [i.posicao for i in imagens] == list(range(1, 9))
    assert [i.kind for i in imagens] == ["principal", "angulo", *INFO]
    for imagem in imagens:
        with Image.open(imagem.path) as img:
            assert img.format == "JPEG" and img.size == (600, 600) == (imagem.largura, imagem.altura)
        assert_no_overflow(imagem.layouts, (600, 600))
        assert_legible(imagem.layouts, 600)


@pytest.mark.slow
def test_watermark_in_teste_and_not_in_producao(fotos, rich_gallery_teste, tmp_path):
    producao = render_gallery(rich_ficha(), fotos, 8, "producao", tmp_path)
    assert [(i.largura, i.altura) for i in producao.imagens] == [(1200, 1200)] * 8
    for teste_img, prod_img in zip(rich_gallery_teste.imagens, producao.imagens, strict=True):
        with Image.open(teste_img.path) as teste, Image.open(prod_img.path) as prod:
            assert prod.size == (1200, 1200)
            inside, outside = watermark_contrast(teste, prod)
            # The watermark changes the pixels under it; elsewhere the two renders agree.
            assert inside > 25, (teste_img.kind, inside)
            assert outside < 6, (teste_img.kind, outside)


def test_principal_is_the_product_on_pure_white(rich_gallery_teste):
    principal = rich_gallery_teste.imagens[0]
    with Image.open(principal.path) as img:
        gray = img.convert("L")
        # Corners are pure white (the photo's grey backdrop was keyed out), the centre is product.
        for corner in [(3, 3), (596, 3), (3, 596), (596, 596)]:
            assert gray.getpixel(corner) >= 250
        assert ImageStat.Stat(gray.crop((280, 200, 320, 400))).mean[0] < 160


@pytest.mark.slow
@pytest.mark.parametrize("ambiente,side", [("teste", 600), ("producao", 1200)])
def test_extreme_ficha_never_overflows(fotos, tmp_path, ambiente, side):
    result = render_gallery(extreme_ficha(), fotos, 8, ambiente, tmp_path)
    assert len(result.imagens) == 8
    truncated = 0
    for imagem in result.imagens:
        assert_no_overflow(imagem.layouts, (side, side))
        assert_legible(imagem.layouts, side)  # cut with an ellipsis, or rows left out: never smaller
        truncated += sum(layout.truncated for layout in imagem.layouts)
    assert truncated > 0  # the extreme texts really were too long, and were cut with an ellipsis


def test_a_plain_backdrop_is_trimmed_to_the_product_and_an_inseparable_photo_kept_whole(fotos, tmp_path):
    keyed = prepare(fotos[1].path, 900)  # light grey studio backdrop
    assert keyed.separavel and keyed.mask is not None and keyed.fundo_uniforme and keyed.notes == ()
    assert keyed.size[0] < 900 * 0.6 and keyed.mask.size == keyed.size  # trimmed to the product
    assert keyed.caixa.width < keyed.size[0] and keyed.lado_produto > 600  # in the 1200 px photo's pixels
    whole = prepare(foto_de(cenario("inseparavel", 800), tmp_path).path, 900)
    assert not whole.separavel and whole.mask is None and whole.size == (800, 800)
    assert whole.notes and whole.notes[0].startswith("Foto usada inteira, com o fundo original")


def test_an_unreadable_photo_fails_its_image_only(fotos, tmp_path):
    broken = tmp_path / "quebrada.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    with_broken_angle = [fotos[0], replace(fotos[1], path=broken)]
    result = render_gallery(rich_ficha(), with_broken_angle, 4, "teste", tmp_path / "a")
    assert [i.kind for i in result.imagens] == ["principal", "destaques", "medidas"]
    assert [f.saida for f in result.falhas] == ["galeria-02-angulo"]
    with pytest.raises(RenderError) as caught:  # the principal photo is in every image
        render_gallery(rich_ficha(), [replace(fotos[0], path=broken)], 3, "teste", tmp_path / "b")
    assert len(caught.value.falhas) == 3
