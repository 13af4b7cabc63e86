"""GET /geracoes/{geracaoId}: the contract's shape, fresh signed links, tenant isolation."""

from tests.api.test_auth import assert_error
from tests.factories import assert_signed_link


async def test_generation_has_the_contract_shape_with_signed_links(client, factory, integrator):
    geracao = await factory.geracao(integrator)
    response = await client.get(f"/v1/geracoes/{geracao.id}", headers=integrator.headers)
    assert response.status == 200
    data = (await response.json())["data"]
    assert data["id"] == geracao.id and data["tipo"] == "galeria" and data["situacao"] == "concluida"
    assert data["ambiente"] == "teste" and data["creditosReservados"] == 0
    assert data["progresso"] == {"etapa": "entregue", "percentual": 100}
    imagens = data["resultados"]["imagens"]
    assert [i["posicao"] for i in imagens] == [1, 2]
    for imagem in imagens:
        assert imagem["id"].startswith("img_")
        assert_signed_link(imagem["url"])
        assert imagem["expiraEm"].endswith("Z") and (imagem["largura"], imagem["altura"]) == (600, 600)
    assert data["resultados"]["video"] is None and data["resultados"]["fala"] is None


async def test_generation_of_another_integrator_or_unknown_is_404(client, factory, integrator):
    geracao = await factory.geracao(integrator)
    stranger = await factory.integrator()
    response = await client.get(f"/v1/geracoes/{geracao.id}", headers=stranger.headers)
    assert response.status == 404
    assert_error(await response.json(), "NOT_FOUND")
    assert (await client.get("/v1/geracoes/ger_nao_existe", headers=integrator.headers)).status == 404


async def test_production_generation_is_invisible_to_a_test_key(client, factory, integrator):
    geracao = await factory.geracao(integrator, ambiente="producao")
    assert (await client.get(f"/v1/geracoes/{geracao.id}", headers=integrator.headers)).status == 404
