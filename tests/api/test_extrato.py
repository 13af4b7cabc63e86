"""GET /extrato: the ledger, paginated and filtered (de, ate, tipo, geracaoId), each entry with its
signed amounts by pool and the balance after it; an idempotent replay adds no entry; money
invariants under concurrency (a balance for 5 generations and 20 asked at once)."""

import asyncio
from datetime import timedelta

from graphql_api.core.ids import new_id
from graphql_api.core.scalars import parse_timestamp
from graphql_api.core.transactions import transaction
from graphql_api.creditos import service as creditos
from graphql_api.geracao.models import Geracao
from tests.api.test_auth import assert_error
from tests.api.test_planos import assert_ledger_is_the_balance, get
from tests.factories import auth

CAMPOS = {
    "id",
    "tipo",
    "creditosDisponiveis",
    "creditosReservados",
    "creditosPlano",
    "creditosPacote",
    "disponiveisApos",
    "geracaoId",
    "recargaId",
    "descricao",
    "criadoEm",
}


async def movimentar(integrator) -> list[str]:
    """A plan, two generations (one delivered in part, one failed) and a staff adjustment."""
    geracoes = [new_id("ger_"), new_id("ger_")]
    async with transaction():
        await creditos.reservar(integrator.id, "teste", geracoes[0], 14, "Galeria de 7 imagens")
        await creditos.liquidar(integrator.id, "teste", geracoes[0], reservados=14, cobrados=10)
        await creditos.reservar(integrator.id, "teste", geracoes[1], 20, "Vídeo")
        await creditos.liquidar(integrator.id, "teste", geracoes[1], reservados=20, cobrados=0)
        await creditos.ajustar(integrator.id, "teste", 5, "Cortesia")
    return geracoes


async def test_entries_carry_signed_amounts_by_pool_and_the_balance_after_them(client, factory, integrator):
    await factory.plano(integrator, "essencial")
    await movimentar(integrator)
    entries = await get(client, "/extrato", integrator.key)
    assert all(set(e) == CAMPOS for e in entries)
    assert [e["tipo"] for e in entries] == [
        "ajuste",
        "liberacao",
        "reserva",
        "liberacao",
        "captura",
        "reserva",
        "concessao_plano",
        "recarga",
    ]
    # oldest first: each entry's balance after it is the previous one's plus its own amount
    saldo = 0
    for entry in reversed(entries):
        assert entry["creditosPlano"] + entry["creditosPacote"] == entry["creditosDisponiveis"]
        saldo += entry["creditosDisponiveis"]
        assert entry["disponiveisApos"] == saldo
        assert entry["id"].startswith("lan_") and entry["criadoEm"].endswith("Z") and entry["recargaId"] is None
    wallet = await get(client, "/saldo", integrator.key)
    assert wallet["creditosDisponiveis"] == saldo == 1000 + 500 - 10 + 5
    assert wallet["creditosPlano"] == sum(e["creditosPlano"] for e in entries)
    await assert_ledger_is_the_balance(integrator.id)


async def test_filters_by_type_generation_and_moment(client, factory, integrator, relogio):
    gerados = await movimentar(integrator)
    reservas = await get(client, "/extrato?tipo=reserva", integrator.key)
    assert [e["geracaoId"] for e in reservas] == list(reversed(gerados))
    da_primeira = await get(client, f"/extrato?geracaoId={gerados[0]}", integrator.key)
    assert [e["tipo"] for e in da_primeira] == ["liberacao", "captura", "reserva"]
    assert await get(client, f"/extrato?geracaoId={gerados[0]}&tipo=captura", integrator.key) == [da_primeira[1]]
    assert await get(client, f"/extrato?geracaoId={new_id('ger_')}", integrator.key) == []
    assert await get(client, "/extrato?tipo=compra_pacote", integrator.key) == []
    # de / ate: timestamps and whole days
    relogio.avancar(days=3)
    async with transaction():
        await creditos.ajustar(integrator.id, "teste", 1, "Três dias depois")
    ultimo = (await get(client, "/extrato?limite=1", integrator.key))[0]
    quando = parse_timestamp(ultimo["criadoEm"])
    de = (quando - timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    depois = await get(client, f"/extrato?de={de}", integrator.key)
    assert [e["id"] for e in depois] == [ultimo["id"]]
    antes = await get(client, f"/extrato?ate={(quando - timedelta(days=1)).date().isoformat()}", integrator.key)
    assert ultimo["id"] not in {e["id"] for e in antes} and len(antes) == 7  # all but the last
    no_dia = await get(
        client, f"/extrato?de={quando.date().isoformat()}&ate={quando.date().isoformat()}&tipo=ajuste", integrator.key
    )
    assert [e["id"] for e in no_dia] == [ultimo["id"]]
    assert len(await get(client, "/extrato?de=0001-01-01&ate=9999-12-31", integrator.key)) == 8  # the calendar's ends


async def test_pagination_walks_the_whole_ledger_newest_first(client, integrator):
    await movimentar(integrator)
    todas = await get(client, "/extrato", integrator.key)
    vistos, cursor = [], None
    while True:
        response = await client.get(
            "/v1/extrato?limite=3" + (f"&cursor={cursor}" if cursor else ""), headers=integrator.headers
        )
        body = await response.json()
        assert response.status == 200 and body["paginacao"]["limite"] == 3
        vistos += [e["id"] for e in body["data"]]
        cursor = body["paginacao"]["proximoCursor"]
        if cursor is None:
            break
    assert vistos == [e["id"] for e in todas]


async def test_bad_filters_are_422_naming_the_field(client, integrator):
    for query, campo in (
        ("tipo=bonus", "tipo"),
        ("geracaoId=ger_x", "geracaoId"),
        ("de=ontem", "de"),
        ("de=2026-11-23T25:00:00Z", "de"),
        ("ate=2026-13-01", "ate"),
        ("limite=0", "limite"),
        ("cursor=ger_01m84srxxg09pgparaezbvybfj", "cursor"),
        ("conta=cta_1", "conta"),
    ):
        response = await client.get(f"/v1/extrato?{query}", headers=integrator.headers)
        assert response.status == 422, query
        body = await response.json()
        assert_error(body, "VALIDATION_FAILED")
        assert [f["campo"] for f in body["error"]["fields"]] == [campo], (query, body)
        assert all(f["mensagem"] for f in body["error"]["fields"])


async def test_an_idempotent_replay_adds_no_entry(client, factory, integrator, aprovado):
    body = {"produtoId": aprovado["id"], "quantidadeImagens": 3}
    headers = auth(integrator.key, **{"Idempotency-Key": "extrato-replay-1"})
    first = await client.post("/v1/galerias", json=body, headers=headers)
    assert first.status == 201
    geracao_id = (await first.json())["data"]["id"]
    await factory.terminada(integrator.key, geracao_id)
    antes = await get(client, "/extrato", integrator.key)
    for _ in range(3):
        replay = await client.post("/v1/galerias", json=body, headers=headers)
        assert replay.status == 201 and replay.headers["Idempotent-Replayed"] == "true"
    assert await get(client, "/extrato", integrator.key) == antes
    assert [e["tipo"] for e in await get(client, f"/extrato?geracaoId={geracao_id}", integrator.key)] == [
        "captura",
        "reserva",
    ]


async def test_twenty_concurrent_generations_with_a_balance_for_five(client, factory, integrator, aprovado):
    # a gallery of 3 images reserves 6 credits: the wallet is left with 30, enough for 5
    await factory.ajustar(integrator, -970)
    assert (await get(client, "/saldo", integrator.key))["creditosDisponiveis"] == 30
    body = {"produtoId": aprovado["id"], "quantidadeImagens": 3}
    responses = await asyncio.gather(
        *(
            client.post(
                "/v1/galerias", json=body, headers=auth(integrator.key, **{"Idempotency-Key": f"vinte-{i:02d}"})
            )
            for i in range(20)
        )
    )
    statuses = sorted(r.status for r in responses)
    assert statuses == [201] * 5 + [402] * 15, statuses
    for response in responses:
        if response.status == 402:
            assert_error(await response.json(), "INSUFFICIENT_CREDITS")
    aceitas = [(await r.json())["data"]["id"] for r in responses if r.status == 201]
    assert await Geracao.filter(integrador_id=integrator.id).count() == 5
    wallet = await get(client, "/saldo", integrator.key)
    assert wallet["creditosDisponiveis"] == 0 and 0 <= wallet["creditosReservados"] <= 30  # never below zero
    await assert_ledger_is_the_balance(integrator.id)
    for geracao_id in aceitas:
        await factory.terminada(integrator.key, geracao_id)
    wallet = await get(client, "/saldo", integrator.key)
    assert (wallet["creditosDisponiveis"], wallet["creditosReservados"]) == (0, 0)
    assert len(await get(client, "/extrato?tipo=reserva", integrator.key)) == 5
    await assert_ledger_is_the_balance(integrator.id)
