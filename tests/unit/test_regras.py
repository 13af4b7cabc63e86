"""The rules of the check, one by one, on the facts they read: every pendencia code of the
catalog is produced by some ficha, at the threshold the catalog documents."""

from dataclasses import replace

import pytest

from graphql_api.conferencia import catalog
from graphql_api.conferencia.analise import Medidas
from graphql_api.conferencia.fotos import FotoRecusada, Recebida
from graphql_api.conferencia.regras import Fatos, avaliar, fatos, galeria, nota_video, triar, video
from graphql_api.midia.enquadramento import AMPLIACAO_MAXIMA

FULL = Fatos(
    aprovadas=8,
    aprovadas_hd=8,
    principal_aprovada=True,
    principal_recortavel=True,
    alguma_recortavel=True,
    principal_texto_sobreposto=False,
    principal_ampliacao=1.0,
    descricao=800,
    atributos=8,
    marca=True,
    medidas=True,
    composicao=True,
    garantia=True,
    prova_social=True,
    perguntas=2,
)
NOTHING = Fatos(
    aprovadas=0,
    aprovadas_hd=0,
    principal_aprovada=False,
    principal_recortavel=False,
    alguma_recortavel=False,
    principal_texto_sobreposto=False,
    principal_ampliacao=1.0,
    descricao=0,
    atributos=0,
    marca=False,
    medidas=False,
    composicao=False,
    garantia=False,
    prova_social=False,
    perguntas=0,
)


def codes(result: dict) -> set[str]:
    return {p["codigo"] for p in result["pendencias"]}


def evaluate(f: Fatos) -> dict[str, dict]:
    return {"galeria": galeria(f), **{r.tipo: video(f, r) for r in catalog.VIDEOS}}


def test_a_complete_ficha_has_every_type_approved_and_top_scores():
    results = evaluate(FULL)
    assert all(r["aprovado"] for r in results.values())
    assert codes(results["galeria"]) == {"GALERIA_QUANTIDADE_ACIMA_DO_SUPORTADO"}  # 8 photos + 6 pieces
    assert results["galeria"]["quantidadesAprovadas"] == list(catalog.PACOTES_GALERIA)
    assert results["video_apresentacao"]["notaVideo"] == results["video_cinepremium"]["notaVideo"] == 100


CASES = [
    ({"aprovadas": 0, "aprovadas_hd": 0, "principal_aprovada": False}, "galeria", "GALERIA_SEM_FOTO_APROVADA"),
    (
        {
            "aprovadas": 1,
            "aprovadas_hd": 1,
            "atributos": 0,
            "medidas": False,
            "composicao": False,
            "garantia": False,
            "prova_social": False,
            "perguntas": 1,
        },
        "galeria",
        "GALERIA_CONTEUDO_INSUFICIENTE",
    ),
    ({}, "galeria", "GALERIA_QUANTIDADE_ACIMA_DO_SUPORTADO"),
    ({"principal_aprovada": False}, "galeria", "GALERIA_FOTO_PRINCIPAL_REPROVADA"),
    ({"principal_recortavel": False}, "galeria", "GALERIA_PRINCIPAL_FUNDO_INSEPARAVEL"),
    ({"principal_recortavel": False, "alguma_recortavel": False}, "galeria", "GALERIA_SEM_FOTO_RECORTAVEL"),
    ({"principal_texto_sobreposto": True}, "galeria", "GALERIA_PRINCIPAL_TEXTO_SOBREPOSTO"),
    ({"principal_ampliacao": AMPLIACAO_MAXIMA + 0.01}, "galeria", "GALERIA_PRINCIPAL_RESOLUCAO_EFETIVA_BAIXA"),
    ({"atributos": catalog.MIN_ATRIBUTOS_DESTAQUES - 1}, "galeria", "GALERIA_SEM_DESTAQUES"),
    ({"medidas": False}, "galeria", "GALERIA_SEM_MEDIDAS"),
    ({"composicao": False}, "galeria", "GALERIA_SEM_COMPOSICAO"),
    ({"prova_social": False}, "galeria", "GALERIA_SEM_PROVA_SOCIAL"),
    ({"aprovadas": 1}, "video_apresentacao", "APRESENTACAO_FOTOS_INSUFICIENTES"),
    ({"descricao": 79}, "video_apresentacao", "APRESENTACAO_DESCRICAO_CURTA"),
    ({"aprovadas": 3}, "video_apresentacao", "APRESENTACAO_POUCAS_FOTOS"),
    ({"atributos": 2}, "video_apresentacao", "APRESENTACAO_POUCOS_ATRIBUTOS"),
    ({"marca": False}, "video_apresentacao", "APRESENTACAO_SEM_MARCA"),
    ({"aprovadas": 4, "aprovadas_hd": 4}, "video_cinepremium", "CINEPREMIUM_FOTOS_INSUFICIENTES"),
    ({"aprovadas_hd": 4}, "video_cinepremium", "CINEPREMIUM_RESOLUCAO_INSUFICIENTE"),
    ({"descricao": 299}, "video_cinepremium", "CINEPREMIUM_DESCRICAO_CURTA"),
    ({"aprovadas": 7, "aprovadas_hd": 7}, "video_cinepremium", "CINEPREMIUM_POUCAS_FOTOS"),
    ({"atributos": 4}, "video_cinepremium", "CINEPREMIUM_POUCOS_ATRIBUTOS"),
    ({"marca": False}, "video_cinepremium", "CINEPREMIUM_SEM_MARCA"),
    ({"medidas": False}, "video_cinepremium", "CINEPREMIUM_SEM_MEDIDAS"),
    ({"prova_social": False}, "video_cinepremium", "CINEPREMIUM_SEM_PROVA_SOCIAL"),
]


@pytest.mark.parametrize("change, tipo, codigo", CASES)
def test_each_pendencia_appears_at_its_threshold_and_its_severity_decides(change, tipo, codigo):
    result = evaluate(replace(FULL, **change))[tipo]
    assert codigo in codes(result)
    entry = next(p for p in result["pendencias"] if p["codigo"] == codigo)
    assert entry["severidade"] == catalog.PENDENCIAS[codigo].severidade and entry["campo"]
    assert result["aprovado"] is (catalog.PENDENCIAS[codigo].severidade == catalog.FRACO)


def test_every_pendencia_of_the_catalog_is_covered_above():
    assert {codigo for _, _, codigo in CASES} == set(catalog.PENDENCIAS)


@pytest.mark.parametrize(
    "aprovadas, extras, maximo, pacotes",
    [
        (1, 1, 2, []),
        (1, 2, 3, [3]),
        (2, 4, 6, [3, 5]),
        (5, 2, 7, [3, 5, 7]),
        (9, 0, 9, [3, 5, 7]),
        (12, 6, 10, [3, 5, 7, 10]),
    ],
)
def test_gallery_sizes_follow_what_the_ficha_supports(aprovadas, extras, maximo, pacotes):
    pieces = dict(
        zip(["medidas", "composicao", "garantia", "prova_social"], [True] * extras + [False] * 4, strict=False)
    )
    f = replace(
        NOTHING,
        aprovadas=aprovadas,
        principal_aprovada=True,
        principal_recortavel=True,
        alguma_recortavel=True,
        atributos=3 if extras > 4 else 0,
        perguntas=2 if extras > 5 else 0,
        **pieces,
    )
    result = galeria(f)
    assert result["quantidadeMaximaImagens"] == maximo and result["quantidadesAprovadas"] == pacotes
    assert result["aprovado"] is bool(pacotes)


def test_video_score_grows_with_the_ficha_and_stays_within_0_100():
    scores = [
        nota_video(replace(FULL, aprovadas=n, aprovadas_hd=n, descricao=n * 100), catalog.CINEPREMIUM)
        for n in range(0, 9)
    ]
    assert scores == sorted(scores) and scores[0] <= 30 and scores[-1] == 100
    assert nota_video(NOTHING, catalog.APRESENTACAO) == 5 and nota_video(NOTHING, catalog.CINEPREMIUM) == 0


def medidas(hash_seed: int, lado: int = 1200, nitidez: float = 500.0, **recorte) -> Medidas:
    """Measures of the current analysis: by default a product cut out cleanly, 900 px long, no text."""
    fields = {"versao": 1, "recorte_confianca": 1.0, "separavel": True, "lado_produto": 900, "texto_sobreposto": ""}
    return Medidas("JPEG", lado, lado, nitidez, f"{hash_seed:064x}", **(fields | recorte))


def received(url: str, m: Medidas | None = None, falha: FotoRecusada | None = None) -> Recebida:
    class _Foto:  # only the measures are read
        medidas = m.as_dict() if m else None

    return Recebida(url, _Foto() if m else None, falha)


def test_screening_keeps_a_sharp_copy_of_a_refused_photo_and_the_principal_first():
    # the same picture: blurred at ordem 1, sharp at ordem 2; the principal (ordem 3) duplicated at ordem 4
    same, principal = 0xFFFF << 100, 0xABCDEF << 40
    imagens = [{"url": f"u{i}", "ordem": i} for i in (1, 2, 3, 4)]
    imagens[2]["principal"] = True
    recebidas = {
        "u1": received("u1", medidas(same, nitidez=5)),
        "u2": received("u2", medidas(same)),
        "u3": received("u3", medidas(principal)),
        "u4": received("u4", medidas(principal ^ 0b111)),  # 3 bits away
    }
    itens = {i.ordem: i for i in triar(imagens, recebidas)}
    assert [m["codigo"] for m in itens[1].motivos] == ["FOTO_DESFOCADA"]
    assert itens[2].aprovada and itens[3].aprovada and itens[3].principal
    assert [m["codigo"] for m in itens[4].motivos] == ["FOTO_QUASE_DUPLICADA"]
    assert "ordem 3" in itens[4].motivos[0]["detalhe"]


def test_facts_read_the_ficha():
    imagens = [{"url": "a", "ordem": 1}, {"url": "b", "ordem": 2}]
    itens = triar(
        imagens,
        {
            "a": received("a", medidas(1, lado=1000)),
            "b": received("b", falha=FotoRecusada("FOTO_HTTP_ERRO", "HTTP 404")),
        },
    )
    ficha = {
        "descricao": "x" * 50,
        "descricaoComplementar": "y" * 30,
        "atributos": [{"nome": "a", "valor": "b"}],
        "dimensoes": {"largura": 1, "altura": 2, "profundidade": 3},  # no unidade: not usable
        "avaliacoes": [{"nota": 5}, {"nota": 4}, {"nota": 3}],  # 3 reviews, average 4
    }
    f = fatos(ficha, itens)
    assert (f.aprovadas, f.aprovadas_hd, f.principal_aprovada, f.descricao, f.atributos) == (1, 0, True, 80, 1)
    assert not f.medidas and f.prova_social and not f.marca
    assert not fatos({"provaSocial": {"totalAvaliacoes": 10, "notaMedia": 3.9}}, itens).prova_social
    assert [r["tipo"] for r in avaliar(ficha, itens)] == list(catalog.TIPOS)


def far(k: int) -> int:
    """Perceptual hashes 64 bits apart from one another (k = 0..3): never near-duplicates."""
    return ((1 << 64) - 1) << (64 * k)


def screen(*photos: Medidas | None, principal: int | None = None) -> list:
    """triar over photos u1, u2, ... in ordem (None: a photo that could not be fetched)."""
    imagens = [{"url": f"u{i}", "ordem": i} for i in range(1, len(photos) + 1)]
    if principal is not None:
        imagens[principal - 1]["principal"] = True
    recebidas = {
        f"u{i}": received(f"u{i}", m) if m else received(f"u{i}", falha=FotoRecusada("FOTO_HTTP_ERRO", "HTTP 404"))
        for i, m in enumerate(photos, start=1)
    }
    return triar(imagens, recebidas)


def test_a_photo_that_cannot_be_cut_out_has_text_over_it_or_a_small_product_is_told_so_and_stays_approved():
    itens = screen(
        medidas(far(0), separavel=False, recorte_confianca=0.42, lado_produto=None),
        medidas(far(1), texto_sobreposto="FRETE GRÁTIS @lojadaana"),
        medidas(far(2), lado_produto=catalog.MIN_LADO_PRODUTO - 1),
        medidas(far(3), lado_produto=catalog.MIN_LADO_PRODUTO),  # enlarged exactly the most tolerated
    )
    assert [[m["codigo"] for m in i.motivos] for i in itens] == [
        ["FOTO_FUNDO_INSEPARAVEL"],
        ["FOTO_TEXTO_SOBREPOSTO"],
        ["FOTO_PRODUTO_PEQUENO"],
        [],
    ]
    assert all(i.aprovada for i in itens) and {m["severidade"] for i in itens for m in i.motivos} == {"fraco"}
    assert "42%" in itens[0].motivos[0]["detalhe"] and "90%" in itens[0].motivos[0]["detalhe"]
    assert "FRETE GRÁTIS @lojadaana" in itens[1].motivos[0]["detalhe"]
    assert (
        f"{catalog.MIN_LADO_PRODUTO - 1} pixels" in itens[2].motivos[0]["detalhe"]
        and "1,5×" in itens[2].motivos[0]["detalhe"]
    )


def test_the_main_image_comes_from_the_first_photo_that_can_be_cut_out_in_gallery_order():
    # the principal (ordem 3) cannot be cut out; ordem 1 can, small and with a banner
    itens = screen(
        medidas(far(0), lado_produto=400, texto_sobreposto="Loja da Ana"),
        medidas(far(1)),
        medidas(far(2), separavel=False, lado_produto=None),
        principal=3,
    )
    f = fatos({}, itens)
    assert (f.principal_recortavel, f.alguma_recortavel, f.principal_texto_sobreposto) == (False, True, True)
    assert f.principal_ampliacao == pytest.approx(1020 / 400)
    assert codes(galeria(f)) >= {
        "GALERIA_PRINCIPAL_FUNDO_INSEPARAVEL",
        "GALERIA_PRINCIPAL_TEXTO_SOBREPOSTO",
        "GALERIA_PRINCIPAL_RESOLUCAO_EFETIVA_BAIXA",
    }
    # text over a principal that cannot be cut out shows too: it is placed whole
    f = fatos(
        {},
        screen(
            medidas(far(0)), medidas(far(1), separavel=False, lado_produto=None, texto_sobreposto="@loja"), principal=2
        ),
    )
    assert f.principal_texto_sobreposto and not f.principal_recortavel
    assert not fatos({}, screen(medidas(far(0)), medidas(far(1), texto_sobreposto="@loja"))).principal_texto_sobreposto
    # a refused principal: the gallery opens with the next approved photo, which can be cut out
    f = fatos({}, screen(None, medidas(far(1)), medidas(far(2), separavel=False, lado_produto=None)))
    assert f.principal_recortavel and not f.principal_aprovada and f.principal_ampliacao == pytest.approx(1020 / 900)


def test_no_approved_photo_to_cut_out_blocks_the_gallery_and_only_approved_photos_count():
    inseparavel = medidas(far(0), separavel=False, recorte_confianca=0.1, lado_produto=None)
    blurred_but_separable = medidas(far(1), nitidez=5)
    f = fatos({}, screen(inseparavel, blurred_but_separable))
    assert (f.aprovadas, f.alguma_recortavel) == (1, False)
    result = galeria(f)
    assert not result["aprovado"] and "GALERIA_SEM_FOTO_RECORTAVEL" in codes(result)
    assert "GALERIA_PRINCIPAL_FUNDO_INSEPARAVEL" not in codes(result)  # one code for one fact
    assert (
        next(p for p in result["pendencias"] if p["codigo"] == "GALERIA_SEM_FOTO_RECORTAVEL")["campo"]
        == "imagens.principal"
    )


def test_photos_measured_before_cut_outs_and_text_were_measured_get_no_new_motivo_nor_pendencia():
    # a Foto.medidas row of the first analysis: a dark border, no cut-out, no text read
    old = Medidas.from_dict(
        {"formato": "JPEG", "largura": 1200, "altura": 1200, "nitidez": 500.0, "hash": f"{7:064x}", "fundo_claro": 0.02}
    )
    assert (old.versao, old.separavel, old.lado_produto, old.texto_sobreposto) == (0, None, None, None)
    itens = screen(old, medidas(far(1), separavel=False, lado_produto=None))
    assert itens[0].motivos == []
    f = fatos({}, itens)
    # it may be cut out (the renderer will know): it still opens the gallery and scores as before
    assert f.principal_recortavel and f.alguma_recortavel and f.principal_ampliacao == 1.0
    assert not f.principal_texto_sobreposto
    new_codes = {
        c for c in catalog.PENDENCIAS if c.startswith("GALERIA_PRINCIPAL_") or c == "GALERIA_SEM_FOTO_RECORTAVEL"
    }
    assert len(new_codes) == 4 and not codes(galeria(f)) & new_codes


def test_the_video_score_counts_a_principal_that_can_be_cut_out():
    assert (
        nota_video(FULL, catalog.APRESENTACAO)
        - nota_video(replace(FULL, principal_recortavel=False), catalog.APRESENTACAO)
        == 5
    )
