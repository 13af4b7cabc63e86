"""Fichas the tests send: a rich one that the quality check approves for every media type."""

from tests.photos import cena

DESCRICAO = (
    "Cafeteira elétrica com jarra de inox para 12 xícaras, filtro permanente lavável, placa aquecedora "
    "que mantém o café quente por 40 minutos e desligamento automático. Reservatório com marcação de "
    "nível, base antiderrapante e porta-fio. Ideal para a cozinha de casa ou do escritório: prepara "
    "uma jarra inteira em 8 minutos."
)

RICA = {
    "nome": "Cafeteira Elétrica Inox 1,2 L",
    "descricao": DESCRICAO,
    "marca": "Marca",
    "modelo": "CF-12",
    "atributos": [
        {"nome": n, "valor": v}
        for n, v in (
            ("Voltagem", "220 V"),
            ("Cor", "Inox"),
            ("Capacidade", "1,2 L"),
            ("Potência", "800 W"),
            ("Material", "Aço inox"),
        )
    ],
    "dimensoes": {
        "largura": 20,
        "altura": 30.5,
        "profundidade": 18,
        "unidade": "cm",
        "pesoLiquido": 1.2,
        "unidadePeso": "kg",
    },
    "composicaoOferta": [{"item": "Cafeteira", "quantidade": 1}, {"item": "Filtro permanente", "quantidade": 1}],
    "garantia": "12 meses",
    "perguntas": [{"pergunta": "É bivolt?", "resposta": "Não, 220 V."}, {"pergunta": "Tem timer?", "resposta": "Não."}],
    "provaSocial": {"totalAvaliacoes": 120, "notaMedia": 4.7, "vendidos": 900},
}


def fotos(site, *seeds, **query) -> list[dict]:
    """`imagens` entries for photos of the test photo host (tests/photos.py)."""
    suffix = "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""
    return [{"url": site(f"/foto/{seed}.jpg{suffix}"), "ordem": i + 1} for i, seed in enumerate(seeds)]


def cenas(site, *nomes: str) -> list[dict]:
    """`imagens` entries for synthetic scenes of the test photo host (/cena/<nome>), drawn now: a
    scene takes a second to draw, longer than the check waits for a photo in the tests."""
    for nome in nomes:
        cena(nome, 1200)  # the photo host asks for (nome, size): the same cache key
    return [{"url": site(f"/cena/{nome}.jpg"), "ordem": i + 1} for i, nome in enumerate(nomes)]
