"""PUT /contas/{contaId}/produtos/{codigo}: validation and versioning as the contract's states."""

import copy

import pytest

from tests.api.test_auth import assert_error

FICHA = {
    "nome": "Cafeteira Elétrica Inox 1,2 L",
    "descricao": "Cafeteira com jarra de inox, 12 xícaras, desligamento automático.",
    "marca": "Marca",
    "modelo": "CF-12",
    "gtin": "7891234567895",
    "categoria": {"codigo": "123", "nome": "Cafeteiras", "caminho": "Casa > Cozinha > Cafeteiras"},
    "atributos": [{"nome": "Voltagem", "valor": "220 V"}, {"nome": "Cor", "valor": "Inox"}],
    "imagens": [
        {"url": "https://fotos.exemplo.com/1.jpg", "ordem": 1, "principal": True},
        {"url": "https://fotos.exemplo.com/2.jpg", "ordem": 2},
    ],
    "dimensoes": {
        "largura": 20,
        "altura": 30.5,
        "profundidade": 18,
        "unidade": "cm",
        "pesoLiquido": 1.2,
        "pesoBruto": 1.5,
        "unidadePeso": "kg",
    },
    "composicaoOferta": [{"item": "Cafeteira", "quantidade": 1}, {"item": "Filtro permanente", "quantidade": 1}],
    "garantia": "12 meses",
    "avaliacoes": [{"nota": 5, "texto": "Ótima", "data": "2026-10-01"}],
    "perguntas": [{"pergunta": "É bivolt?", "resposta": "Não, 220 V."}],
    "provaSocial": {"totalAvaliacoes": 120, "notaMedia": 4.7, "vendidos": 900},
    "anuncio": {"marketplace": "mercadolivre", "id": "MLB123"},
}


@pytest.fixture
async def conta(factory, integrator):
    return await factory.conta(integrator)


async def put(client, integrator, conta, codigo, ficha):
    return await client.put(f"/v1/contas/{conta['id']}/produtos/{codigo}", json=ficha, headers=integrator.headers)


async def test_first_submission_creates_version_1_conferindo(client, integrator, conta):
    response = await put(client, integrator, conta, "SKU-1", FICHA)
    assert response.status == 200
    produto = (await response.json())["data"]
    assert produto["id"].startswith("prd_")
    assert (produto["contaId"], produto["codigo"], produto["nome"]) == (conta["id"], "SKU-1", FICHA["nome"])
    assert produto["situacao"] == "conferindo" and produto["versao"] == 1
    assert produto["fotos"]["recebidas"] == 2
    assert [f["ordem"] for f in produto["fotos"]["itens"]] == [1, 2]


async def test_identical_content_keeps_the_version_and_changes_bump_it(client, integrator, conta):
    first = (await (await put(client, integrator, conta, "SKU-2", FICHA)).json())["data"]
    shuffled = copy.deepcopy(FICHA)
    shuffled["imagens"].reverse()  # same photos, listed in another order: same content
    same = (await (await put(client, integrator, conta, "SKU-2", dict(reversed(list(shuffled.items()))))).json())[
        "data"
    ]
    assert same["versao"] == 1 and same["id"] == first["id"]
    changed = copy.deepcopy(FICHA) | {"garantia": "24 meses"}
    second = (await (await put(client, integrator, conta, "SKU-2", changed)).json())["data"]
    assert second["versao"] == 2 and second["id"] == first["id"] and second["situacao"] == "conferindo"
    third = (await (await put(client, integrator, conta, "SKU-2", FICHA)).json())["data"]
    assert third["versao"] == 3  # back to the old content is still a new version


async def test_minimal_ficha_needs_only_a_name(client, integrator, conta):
    response = await put(client, integrator, conta, "SKU-MIN", {"nome": "Só o nome"})
    assert response.status == 200
    assert (await response.json())["data"]["fotos"] == {"recebidas": 0, "aprovadas": 0, "itens": []}


@pytest.mark.parametrize(
    "change, campo, codigo",
    [
        ({"nome": None}, "nome", "tipo_invalido"),
        ({"nome": ""}, "nome", "muito_curto"),
        ({"nome": "x" * 201}, "nome", "muito_longo"),
        ({"imagens": [{"url": "http://inseguro.com/1.jpg", "ordem": 1}]}, "imagens[0].url", "url_nao_https"),
        ({"imagens": [{"url": "https://a.com/1.jpg", "ordem": 0}]}, "imagens[0].ordem", "fora_do_intervalo"),
        ({"imagens": [{"url": "https://a.com/1.jpg", "ordem": "1"}]}, "imagens[0].ordem", "tipo_invalido"),
        ({"imagens": [{"url": f"https://a.com/{i}.jpg", "ordem": i + 1} for i in range(21)]}, "imagens", "muito_longo"),
        (
            {"imagens": [{"url": "https://a.com/1.jpg", "ordem": 1}, {"url": "https://a.com/2.jpg", "ordem": 1}]},
            "imagens[1].ordem",
            "duplicado",
        ),
        (
            {
                "imagens": [
                    {"url": "https://a.com/1.jpg", "ordem": 1, "principal": True},
                    {"url": "https://a.com/2.jpg", "ordem": 2, "principal": True},
                ]
            },
            "imagens[1].principal",
            "duplicado",
        ),
        ({"gtin": "7891234567890"}, "gtin", "formato_invalido"),
        ({"avaliacoes": [{"nota": 6}]}, "avaliacoes[0].nota", "fora_do_intervalo"),
        ({"avaliacoes": [{"nota": 4, "data": "01/10/2026"}]}, "avaliacoes[0].data", "formato_invalido"),
        ({"avaliacoes": [{"nota": 4, "data": "2999-01-01"}]}, "avaliacoes[0].data", "fora_do_intervalo"),
        ({"dimensoes": {"unidade": "polegadas"}}, "dimensoes.unidade", "valor_invalido"),
        (
            {"composicaoOferta": [{"item": "Cabo", "quantidade": 0}]},
            "composicaoOferta[0].quantidade",
            "fora_do_intervalo",
        ),
        ({"corDoProduto": "azul"}, "corDoProduto", "desconhecido"),
    ],
)
async def test_invalid_ficha_gets_422_with_the_field(client, integrator, conta, change, campo, codigo):
    ficha = copy.deepcopy(FICHA) | change
    if change.get("nome", "") is None:
        ficha["nome"] = None
    response = await put(client, integrator, conta, "SKU-BAD", ficha)
    assert response.status == 422
    body = await response.json()
    assert_error(body, "VALIDATION_FAILED")
    assert {"campo": campo, "codigo": codigo} in [
        {"campo": f["campo"], "codigo": f["codigo"]} for f in body["error"]["fields"]
    ]


async def test_several_problems_are_reported_together_and_nothing_is_stored(client, integrator, conta):
    ficha = {"descricao": 5, "imagens": [{"url": "ftp://x", "ordem": 1}]}
    response = await put(client, integrator, conta, "SKU-MULTI", ficha)
    campos = {f["campo"] for f in (await response.json())["error"]["fields"]}
    assert campos == {"nome", "descricao", "imagens[0].url"}
    ok = await put(client, integrator, conta, "SKU-MULTI", {"nome": "agora sim"})
    assert (await ok.json())["data"]["versao"] == 1


async def test_product_of_an_invisible_account_is_404(client, factory, integrator, conta):
    stranger = await factory.integrator()
    response = await client.put(f"/v1/contas/{conta['id']}/produtos/SKU-X", json=FICHA, headers=stranger.headers)
    assert response.status == 404
    response = await client.put("/v1/contas/cta_inexistente/produtos/SKU-X", json=FICHA, headers=integrator.headers)
    assert response.status == 404


async def test_a_value_outside_a_fixed_set_names_the_accepted_values_in_portuguese(client, integrator, conta):
    response = await put(
        client, integrator, conta, "SKU-UNIDADE", copy.deepcopy(FICHA) | {"dimensoes": {"unidade": "polegadas"}}
    )
    campo = next(f for f in (await response.json())["error"]["fields"] if f["campo"] == "dimensoes.unidade")
    assert campo["mensagem"].startswith("Use um destes valores: ")
    assert "'" not in campo["mensagem"] and " or " not in campo["mensagem"]  # no library wording
