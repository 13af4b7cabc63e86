"""Credits: the wallet, its ledger (every movement an entry), prices, reservations."""

import pytest

from graphql_api.core.errors import ApiError
from graphql_api.core.transactions import transaction
from graphql_api.creditos import service as creditos
from graphql_api.creditos.precos import PRECOS


async def saldo(client, integrator):
    return (await (await client.get("/v1/saldo", headers=integrator.headers)).json())["data"]


async def extrato(client, integrator):
    return (await (await client.get("/v1/extrato", headers=integrator.headers)).json())["data"]


async def test_initial_play_credits_are_a_ledger_entry(client, integrator):
    entries = await extrato(client, integrator)
    assert [(e["tipo"], e["creditosDisponiveis"], e["creditosReservados"]) for e in entries] == [("recarga", 1000, 0)]
    assert (await saldo(client, integrator))["creditosDisponiveis"] == 1000


async def test_price_table_is_served(client, integrator):
    body = await (await client.get("/v1/precos", headers=integrator.headers)).json()
    assert {p["tipo"]: p["creditos"] for p in body["data"]} == {t: p.creditos for t, p in PRECOS.items()}


async def test_reserve_capture_and_release_keep_balances_equal_to_the_ledger(client, integrator):
    async with transaction():
        await creditos.reservar(integrator.id, "teste", "ger_a", 14, "Galeria de 7 imagens")
    after_reserve = await saldo(client, integrator)
    assert (after_reserve["creditosDisponiveis"], after_reserve["creditosReservados"]) == (986, 14)
    async with transaction():
        await creditos.liquidar(integrator.id, "teste", "ger_a", reservados=14, cobrados=10)  # 5 of 7 delivered
    after = await saldo(client, integrator)
    assert (after["creditosDisponiveis"], after["creditosReservados"]) == (990, 0)
    entries = await extrato(client, integrator)
    assert [e["tipo"] for e in entries] == ["liberacao", "captura", "reserva", "recarga"]
    assert sum(e["creditosDisponiveis"] for e in entries) == after["creditosDisponiveis"]
    assert sum(e["creditosReservados"] for e in entries) == after["creditosReservados"]


async def test_insufficient_credits_is_402_and_moves_nothing(client, integrator):
    with pytest.raises(ApiError) as error:
        async with transaction():
            await creditos.reservar(integrator.id, "teste", "ger_b", 5000, "Grande demais")
    assert error.value.type == "INSUFFICIENT_CREDITS" and error.value.status == 402
    assert (await saldo(client, integrator))["creditosDisponiveis"] == 1000
    assert len(await extrato(client, integrator)) == 1
