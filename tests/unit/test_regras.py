"""The rules of the check, one by one, on the facts they read: every pendencia code of the
catalog is produced by some ficha, at the threshold the catalog documents."""

from dataclasses import replace

import pytest

from graphql_api.conferencia import catalog
from graphql_api.conferencia.analise import Medidas
from graphql_api.conferencia.fotos import FotoRecusada, Recebida
from graphql_api.conferencia.regras import Fatos, avaliar, fatos, galeria, nota_video, triar, video

FULL = Fatos(
    aprovadas=8, aprovadas_hd=8, principal_aprovada=True, principal_fundo_claro=True, descricao=800,
    atributos=8, marca=True, medidas=True, composicao=True, garantia=True, prova_social=True, perguntas=2,
)
NOTHING = Fatos(
    aprovadas=0, aprovadas_hd=0, principal_aprovada=False, principal_fundo_claro=False, descricao=0,
    atributos=0, marca=False, medidas=False, composicao=False, garantia=False, prova_social=False, perguntas=0,
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
    ({"aprovadas": 1, "aprovadas_hd": 1, "atributos": 0, "medidas": False, "composicao": False, "garantia": False, "prova_social": False, "perguntas": 1}, "galeria", "GALERIA_CONTEUDO_INSUFICIENTE"),
    ({}, "galeria", "GALERIA_QUANTIDADE_ACIMA_DO_SUPORTADO"),
    ({"principal_aprovada": False, "principal_fundo_claro": False}, "galeria", "GALERIA_FOTO_PRINCIPAL_REPROVADA"),
    ({"principal_fundo_claro": False}, "galeria", "GALERIA_FUNDO_PRINCIPAL_NAO_CLARO"),
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
    [(1, 1, 2, []), (1, 2, 3, [3]), (2, 4, 6, [3, 5]), (5, 2, 7, [3, 5, 7]), (9, 0, 9, [3, 5, 7]), (12, 6, 10, [3, 5, 7, 10])],
)
def test_gallery_sizes_follow_what_the_ficha_supports(aprovadas, extras, maximo, pacotes):
    pieces = dict(zip(["medidas", "composicao", "garantia", "prova_social"], [True] * extras + [False] * 4))
    f = replace(NOTHING, aprovadas=aprovadas, principal_aprovada=True, principal_fundo_claro=True,
                atributos=3 if extras > 4 else 0, perguntas=2 if extras > 5 else 0, **pieces)
    result = galeria(f)
    assert result["quantidadeMaximaImagens"] == maximo and result["quantidadesAprovadas"] == pacotes
    assert result["aprovado"] is bool(pacotes)


def test_video_score_grows_with_the_ficha_and_stays_within_0_100():
    scores = [nota_video(replace(FULL, aprovadas=n, aprovadas_hd=n, descricao=n * 100), catalog.CINEPREMIUM) for n in range(0, 9)]
    assert scores == sorted(scores) and scores[0] <= 30 and scores[-1] == 100
    assert nota_video(NOTHING, catalog.APRESENTACAO) == 5 and nota_video(NOTHING, catalog.CINEPREMIUM) == 0


def medidas(hash_seed: int, lado: int = 1200, nitidez: float = 500.0, fundo: float = 1.0) -> Medidas:
    return Medidas("JPEG", lado, lado, nitidez, f"{hash_seed:064x}", fundo)


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
    itens = triar(imagens, {"a": received("a", medidas(1, lado=1000)), "b": received("b", falha=FotoRecusada("FOTO_HTTP_ERRO", "HTTP 404"))})
    ficha = {
        "descricao": "x" * 50, "descricaoComplementar": "y" * 30, "atributos": [{"nome": "a", "valor": "b"}],
        "dimensoes": {"largura": 1, "altura": 2, "profundidade": 3},  # no unidade: not usable
        "avaliacoes": [{"nota": 5}, {"nota": 4}, {"nota": 3}],  # 3 reviews, average 4
    }
    f = fatos(ficha, itens)
    assert (f.aprovadas, f.aprovadas_hd, f.principal_aprovada, f.descricao, f.atributos) == (1, 0, True, 80, 1)
    assert not f.medidas and f.prova_social and not f.marca
    assert not fatos({"provaSocial": {"totalAvaliacoes": 10, "notaMedia": 3.9}}, itens).prova_social
    assert [r["tipo"] for r in avaliar(ficha, itens)] == list(catalog.TIPOS)
