"""Authentication at the edge: 401 UNAUTHORIZED, 403 INTEGRATOR_PAUSED, immediate revocation."""

from graphql_api.chave import service as chaves
from graphql_api.integrador import service as integradores
from tests.factories import auth


def assert_error(body: dict, error_type: str) -> None:
    error = body["error"]
    assert error["type"] == error_type
    assert error["message"] and error["description"]
    assert isinstance(error["fields"], list)
    assert error["documentation"].endswith(f"/docs/erros#{error_type}")


async def test_missing_authorization_is_401_with_envelope_and_request_id(client):
    response = await client.get("/v1/saldo")
    assert response.status == 401
    assert response.headers["X-Request-Id"].startswith("req_")
    assert_error(await response.json(), "UNAUTHORIZED")


async def test_malformed_and_unknown_keys_are_401(client, integrator):
    # an OAuth-shaped token too: no OAuth token is issued yet (docs/autenticacao.md)
    for token in (
        "nonsense",
        "sk_test_short",
        "oat_test_" + "a" * 40,
        integrator.key[:-1] + ("x" if integrator.key[-1] != "x" else "y"),
    ):
        response = await client.get("/v1/saldo", headers=auth(token))
        assert response.status == 401, token
        assert_error(await response.json(), "UNAUTHORIZED")
    response = await client.get("/v1/saldo", headers={"Authorization": f"Basic {integrator.key}"})
    assert response.status == 401


async def test_key_with_the_wrong_environment_prefix_is_refused(client, integrator):
    live_looking = integrator.key.replace("sk_test_", "sk_live_")
    response = await client.get("/v1/saldo", headers=auth(live_looking))
    assert response.status == 401


async def test_valid_key_answers_and_revocation_is_immediate(client, factory, integrator):
    response = await client.get("/v1/saldo", headers=integrator.headers)
    assert response.status == 200  # also warms the key cache
    identifier = chaves.split_key(integrator.key)[1]
    await chaves.revogar_chave(integrator.id, identifier, bus=factory.runtime.bus)
    response = await client.get("/v1/saldo", headers=integrator.headers)
    assert response.status == 401
    assert "revogada" in (await response.json())["error"]["description"]


async def test_paused_integrator_gets_403_everywhere_and_resumes(client, factory, integrator):
    assert (await client.get("/v1/contas", headers=integrator.headers)).status == 200
    await integradores.definir_situacao(integrator.id, "pausado", bus=factory.runtime.bus)
    for path in ("/v1/saldo", "/v1/contas", "/v1/integracao/chamadas"):
        response = await client.get(path, headers=integrator.headers)
        assert response.status == 403
        assert_error(await response.json(), "INTEGRATOR_PAUSED")
    await integradores.definir_situacao(integrator.id, "ativo", bus=factory.runtime.bus)
    assert (await client.get("/v1/contas", headers=integrator.headers)).status == 200


async def test_a_second_key_of_the_same_integrator_works(client, factory, integrator):
    other = await factory.key(integrator)
    response = await client.get("/v1/saldo", headers=auth(other))
    assert response.status == 200
