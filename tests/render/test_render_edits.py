"""Image edits: the request model's field errors, and each operation's effect on real pixels."""

import cv2
import numpy as np
import pytest
from PIL import Image, ImageChops, ImageStat

from graphql_api.core.errors import ApiError
from graphql_api.geracao.render import observacoes
from graphql_api.geracao.render.edits import FORMATS, apply_edits
from graphql_api.geracao.schemas import parse_edicao
from graphql_api.midia.recorte import NADA
from tests.render.cenarios import cenario
from tests.render.helpers import assert_no_overflow, foto_de, watermark_contrast


def _fields(dados) -> dict[str, str]:
    with pytest.raises(ApiError) as caught:
        parse_edicao(dados)
    assert caught.value.type == "VALIDATION_FAILED"
    return {f.campo: f.codigo for f in caught.value.fields}


def test_request_errors_name_each_operation_field():
    assert _fields([]) == {"corpo": "tipo_invalido"}
    assert _fields({}) == {"operacoes": "obrigatorio"}
    assert _fields({"operacoes": []}) == {"operacoes": "muito_curto"}
    assert _fields({"operacoes": [{"tipo": "ajuste"}] * 11}) == {"operacoes": "muito_longo"}
    assert _fields(
        {
            "operacoes": [
                {"tipo": "girar"},
                {"formato": "quadrado_1200"},
                {"tipo": "enquadrar", "formato": "quadrado_999", "margem": 50},
                {"tipo": "ajuste", "brilho": "10", "contraste": 101},
                {"tipo": "texto", "texto": "", "cor": "azul", "negrito": True},
                {"tipo": "selo", "texto": "x" * 25, "posicao": "meio"},
            ]
        }
    ) == {
        "operacoes[0].tipo": "valor_invalido",
        "operacoes[1].tipo": "obrigatorio",
        "operacoes[2].formato": "valor_invalido",
        "operacoes[2].margem": "fora_do_intervalo",
        "operacoes[3].brilho": "tipo_invalido",
        "operacoes[3].contraste": "fora_do_intervalo",
        "operacoes[4].texto": "muito_curto",
        "operacoes[4].cor": "formato_invalido",
        "operacoes[4].negrito": "desconhecido",
        "operacoes[5].texto": "muito_longo",
        "operacoes[5].posicao": "valor_invalido",
    }


def test_valid_request_keeps_order_and_defaults():
    pedido = parse_edicao({"operacoes": [{"tipo": "selo", "texto": "Novo"}, {"tipo": "fundo_branco"}]})
    assert [op.tipo for op in pedido.operacoes] == ["selo", "fundo_branco"]
    assert pedido.operacoes[0].posicao == "superior_direito"


@pytest.mark.parametrize("formato", list(FORMATS))
@pytest.mark.parametrize("modo", ["conter", "preencher", "produto"])
def test_reframing_gives_the_marketplace_size(fotos, tmp_path, formato, modo):
    pedido = parse_edicao({"operacoes": [{"tipo": "enquadrar", "formato": formato, "modo": modo}]})
    result = apply_edits(fotos[0].path, pedido, "producao", tmp_path / "out.jpg")
    with Image.open(result.path) as img:
        assert img.size == FORMATS[formato] == (result.largura, result.altura)


def test_teste_edit_is_half_size_and_watermarked(fotos, tmp_path):
    pedido = parse_edicao({"operacoes": [{"tipo": "enquadrar", "formato": "quadrado_1200"}]})
    teste = apply_edits(fotos[0].path, pedido, "teste", tmp_path / "t.jpg")
    producao = apply_edits(fotos[0].path, pedido, "producao", tmp_path / "p.jpg")
    assert (teste.largura, teste.altura) == (600, 600)
    with Image.open(teste.path) as t, Image.open(producao.path) as p:
        inside, outside = watermark_contrast(t, p)
    assert inside > 25 and outside < 6


def test_white_background_keys_a_uniform_backdrop(fotos, tmp_path):
    with Image.open(fotos[1].path) as original:
        assert max(original.getpixel((5, 5))) < 240  # a light grey studio backdrop
    pedido = parse_edicao({"operacoes": [{"tipo": "fundo_branco"}]})
    result = apply_edits(fotos[1].path, pedido, "producao", tmp_path / "out.jpg")
    with Image.open(result.path) as img:
        assert min(img.getpixel((5, 5))) >= 252 and min(img.getpixel((img.width - 6, img.height - 6))) >= 252
        x, y = round(img.width * 0.38), round(img.height * 0.6)  # on the (shifted) bottle
        assert ImageStat.Stat(img.convert("L").crop((x - 20, y - 20, x + 20, y + 20))).mean[0] < 150
    assert result.notes == []


@pytest.mark.parametrize(
    "operacao", [{"tipo": "fundo_branco"}, {"tipo": "enquadrar", "formato": "quadrado_1000", "modo": "produto"}]
)
def test_an_inseparable_product_keeps_its_backdrop_and_says_so(operacao, tmp_path):
    foto = foto_de(cenario("inseparavel", 800), tmp_path)  # no algorithm tells this box from its table
    result = apply_edits(foto.path, parse_edicao({"operacoes": [operacao]}), "producao", tmp_path / "out.jpg")
    # the whole photo, as it was (framed whole, as modo conter would)
    como_estava = {**operacao, "modo": "conter"} if operacao["tipo"] == "enquadrar" else {"tipo": "ajuste"}
    referencia = apply_edits(foto.path, parse_edicao({"operacoes": [como_estava]}), "producao", tmp_path / "ref.jpg")
    with Image.open(result.path) as img, Image.open(referencia.path) as reference:
        assert img.size == reference.size
        assert ImageStat.Stat(ImageChops.difference(img, reference).convert("L")).mean[0] < 1
    assert result.notes == [f"{operacao['tipo']}: {observacoes.fundo_mantido(incerto=False, causa=NADA)}"]
    assert "não foi possível separar o produto do fundo: nenhum objeto se destaca do fundo" in result.notes[0]


@pytest.mark.parametrize("nome", ["bagunca", "escuro_no_escuro"])
def test_white_background_cuts_the_product_out_of_any_backdrop(nome, tmp_path, verdade):
    c = cenario(nome, 800)
    verdade(c)
    pedido = parse_edicao({"operacoes": [{"tipo": "fundo_branco"}]})
    result = apply_edits(foto_de(c, tmp_path).path, pedido, "producao", tmp_path / "out.jpg")
    assert result.notes == []
    with Image.open(result.path) as img:
        darkest = np.asarray(img.convert("RGB")).min(axis=2)
    produto = np.asarray(c.mascara) > 127
    # past the product everything is white: no shelf, no dark ring (JPEG's own ripple aside)
    distance = cv2.distanceTransform((~produto).astype(np.uint8), cv2.DIST_L2, 5)
    assert darkest[distance > 3].min() >= 235 and darkest[distance > 8].min() >= 250
    assert np.mean(darkest[produto] < 200) > 0.6  # and the product is still there


def test_framing_on_the_product_centres_its_mask_with_the_margin(tmp_path, verdade):
    c = cenario("pequeno_descentrado", 800)  # small and off-centre, its photo's shadow beside it
    verdade(c)
    pedido = parse_edicao(
        {"operacoes": [{"tipo": "enquadrar", "formato": "quadrado_1000", "modo": "produto", "margem": 10}]}
    )
    result = apply_edits(foto_de(c, tmp_path).path, pedido, "producao", tmp_path / "out.jpg")
    with Image.open(result.path) as img:
        darkest = np.asarray(img.convert("RGB")).min(axis=2)
    ys, xs = np.nonzero(darkest < 240)
    assert abs(ys.min() - 100) <= 6 and abs(ys.max() - 899) <= 6  # the bottle's height fills 80 %
    assert abs((xs.min() + xs.max()) / 2 - 500) <= 6  # centred, its shadow left out


def test_brightness_and_contrast_move_the_pixels(fotos, tmp_path):
    def mean(dados):
        result = apply_edits(fotos[3].path, parse_edicao({"operacoes": [dados]}), "producao", tmp_path / "x.jpg")
        with Image.open(result.path) as img:
            stat = ImageStat.Stat(img.convert("L"))
            return stat.mean[0], stat.stddev[0]

    base_mean, base_spread = mean({"tipo": "ajuste"})
    assert mean({"tipo": "ajuste", "brilho": 30})[0] > base_mean + 15
    assert mean({"tipo": "ajuste", "brilho": -30})[0] < base_mean - 15
    assert mean({"tipo": "ajuste", "contraste": 50})[1] > base_spread * 1.3


def test_text_band_and_badge_stay_inside(fotos, tmp_path):
    pedido = parse_edicao(
        {
            "operacoes": [
                {"tipo": "enquadrar", "formato": "paisagem_1200x628", "modo": "produto"},
                {
                    "tipo": "texto",
                    "texto": "Frete grátis para todo o Brasil — promoção válida até o domingo, ÇÃO!",
                    "posicao": "topo",
                    "fundo": "#000000",
                },
                {"tipo": "selo", "texto": "Lançamento exclusivo", "posicao": "inferior_esquerdo", "cor": "#FF0000"},
            ]
        }
    )
    result = apply_edits(fotos[0].path, pedido, "producao", tmp_path / "out.jpg")
    assert (result.largura, result.altura) == (1200, 628)
    assert len(result.layouts) == 2
    assert_no_overflow(result.layouts, (1200, 628))
    with Image.open(result.path) as img:
        assert max(img.getpixel((600, 10))) < 30  # the black band at the top
        r, g, b = img.getpixel((70, 628 - 70))
        assert r > 200 and g < 60  # the red badge in the bottom-left corner
