"""Accounts: POST /contas, GET /contas (paginated), GET /contas/{contaId}, tenant isolation."""

from graphql_api.core.principal import Ambiente
from tests.api.test_auth import assert_error
from tests.factories import auth


async def test_create_account_has_the_contract_shape(client, integrator):
    response = await client.post(
        "/v1/contas", json={"codigoExterno": "loja-1", "nome": "Loja Um"}, headers=integrator.headers
    )
    assert response.status == 201
    conta = (await response.json())["data"]
    assert conta["id"].startswith("cta_")
    assert conta | {"id": None, "criadoEm": None, "atualizadoEm": None} == {
        "id": None,
        "codigoExterno": "loja-1",
        "nome": "Loja Um",
        "origem": "subconta",
        "situacao": "ativa",
        "ambiente": "teste",
        "criadoEm": None,
        "atualizadoEm": None,
    }
    assert conta["criadoEm"].endswith("Z")


async def test_repeated_codigo_externo_is_409_with_the_existing_id(client, factory, integrator):
    existing = await factory.conta(integrator, codigo_externo="repetido")
    response = await client.post(
        "/v1/contas", json={"codigoExterno": "repetido", "nome": "Outra"}, headers=integrator.headers
    )
    assert response.status == 409
    body = await response.json()
    assert_error(body, "ACCOUNT_ALREADY_EXISTS")
    field = body["error"]["fields"][0]
    assert field["campo"] == "codigoExterno" and field["id"] == existing["id"]
    assert existing["id"] in field["mensagem"]


async def test_invalid_account_lists_every_field_problem(client, integrator):
    response = await client.post(
        "/v1/contas", json={"codigoExterno": 12, "nome": "", "extra": 1}, headers=integrator.headers
    )
    assert response.status == 422
    fields = {f["campo"]: f["codigo"] for f in (await response.json())["error"]["fields"]}
    assert fields == {"codigoExterno": "tipo_invalido", "nome": "muito_curto", "extra": "desconhecido"}


async def test_get_account_and_404_for_other_integrators_and_environments(client, factory, integrator):
    conta = await factory.conta(integrator)
    response = await client.get(f"/v1/contas/{conta['id']}", headers=integrator.headers)
    assert response.status == 200 and (await response.json())["data"] == conta
    stranger = await factory.integrator()
    response = await client.get(f"/v1/contas/{conta['id']}", headers=stranger.headers)
    assert response.status == 404
    assert_error(await response.json(), "NOT_FOUND")
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    assert (await client.get(f"/v1/contas/{conta['id']}", headers=auth(live))).status == 404


async def test_list_accounts_paginates_newest_first_with_a_cursor(client, factory, integrator):
    created = [await factory.conta(integrator, codigo_externo=f"pag-{i}") for i in range(5)]
    seen = []
    cursor = None
    while True:
        query = "?limite=2" + (f"&cursor={cursor}" if cursor else "")
        body = await (await client.get(f"/v1/contas{query}", headers=integrator.headers)).json()
        assert body["paginacao"]["limite"] == 2
        seen += [c["id"] for c in body["data"]]
        cursor = body["paginacao"]["proximoCursor"]
        if cursor is None:
            break
    assert seen == [c["id"] for c in reversed(created)]


async def test_list_filters_and_rejects_unknown_parameters(client, factory, integrator):
    await factory.conta(integrator, codigo_externo="alvo")
    await factory.conta(integrator, codigo_externo="outro")
    body = await (await client.get("/v1/contas?codigoExterno=alvo", headers=integrator.headers)).json()
    assert [c["codigoExterno"] for c in body["data"]] == ["alvo"]
    response = await client.get("/v1/contas?codigo=alvo", headers=integrator.headers)
    assert response.status == 422
    assert (await response.json())["error"]["fields"][0] == {
        "campo": "codigo",
        "codigo": "desconhecido",
        "mensagem": "Parâmetro desconhecido.",
    }
    for bad in ("limite=0", "limite=101", "limite=abc"):
        assert (await client.get(f"/v1/contas?{bad}", headers=integrator.headers)).status == 422, bad


async def test_saldo_has_the_contract_shape_per_environment(client, factory, integrator):
    saldo = (await (await client.get("/v1/saldo", headers=integrator.headers)).json())["data"]
    # the contract's fields, and the split of the available credits by pool (docs/creditos.md)
    assert set(saldo) == {
        "modeloCobranca",
        "ambiente",
        "creditosDisponiveis",
        "creditosReservados",
        "atualizadoEm",
        "creditosPlano",
        "creditosPacote",
    }
    assert saldo["ambiente"] == "teste" and saldo["creditosDisponiveis"] > 0 and saldo["creditosReservados"] == 0
    assert saldo["creditosPlano"] + saldo["creditosPacote"] == saldo["creditosDisponiveis"]
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    saldo = (await (await client.get("/v1/saldo", headers=auth(live))).json())["data"]
    assert saldo["ambiente"] == "producao" and saldo["creditosDisponiveis"] == 0
