"""Plans, the monthly cycle and the quota from the integrator's side: GET /planos, /plano,
/cota-do-mes and /saldo, upgrades and downgrades, the cycle's turn and the expiry of plan credits
with the injected clock (tests/factories.py `relogio`), limits from the plan, staff tooling."""

from datetime import timedelta

import pytest
from tortoise import connections

from graphql_api.core.scalars import parse_timestamp
from graphql_api.core.transactions import MAIN_CONNECTION, transaction
from graphql_api.creditos import catalogo, ciclo, planos
from graphql_api.creditos import service as creditos
from graphql_api.creditos.models import Assinatura, Carteira, Lancamento, Plano
from tests.api.test_auth import assert_error
from tests.api.test_integracao import graphql, staff_token
from tests.factories import auth

CATALOGO = {p.codigo: p for p in catalogo.catalogo().planos}


async def get(client, path: str, key: str) -> dict:
    response = await client.get(f"/v1{path}", headers=auth(key))
    assert response.status == 200, await response.text()
    return (await response.json())["data"]


async def assert_ledger_is_the_balance(integrador_id: str, ambiente: str = "teste") -> Carteira:
    """Each balance equals the sum of its column in the ledger, and no pool is below zero. Read in
    one snapshot: a worker process may settle a generation between the two reads."""
    async with transaction():
        connection = connections.get(MAIN_CONNECTION)
        if connection.capabilities.dialect == "postgres":  # SQLite's transaction is a snapshot already
            await connection.execute_script("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        carteira = await Carteira.get(integrador_id=integrador_id, ambiente=ambiente)
        entries = await Lancamento.filter(carteira_id=carteira.id).order_by("id")
    assert sum(e.disponiveis for e in entries) == carteira.creditos_disponiveis
    assert sum(e.reservados for e in entries) == carteira.creditos_reservados
    assert sum(e.plano for e in entries) == carteira.creditos_plano
    assert sum(e.pacote for e in entries) == carteira.creditos_pacote
    assert carteira.creditos_plano + carteira.creditos_pacote == carteira.creditos_disponiveis
    assert min(carteira.creditos_plano, carteira.creditos_pacote, carteira.creditos_reservados) >= 0
    assert entries[-1].disponiveis_apos == carteira.creditos_disponiveis
    return carteira


async def reservar(integrator, geracao_id: str, creditos_: int, ambiente: str = "teste") -> None:
    async with transaction():
        await creditos.reservar(integrator.id, ambiente, geracao_id, creditos_, "Reserva de teste")


async def liquidar(integrator, geracao_id: str, reservados: int, cobrados: int, ambiente: str = "teste") -> None:
    async with transaction():
        await creditos.liquidar(integrator.id, ambiente, geracao_id, reservados=reservados, cobrados=cobrados)


async def test_the_catalogue_is_the_data_file_cheapest_first(client, integrator):
    planos_ = await get(client, "/planos", integrator.key)
    assert [p["codigo"] for p in planos_] == ["gratuito", "essencial", "profissional", "escala"]
    for plano in planos_:
        dados = CATALOGO[plano["codigo"]]
        assert plano == {
            "codigo": dados.codigo,
            "nome": dados.nome,
            "versao": 1,
            "precoCentavos": dados.precoCentavos,
            "creditosMensais": dados.creditosMensais,
            "limites": {
                "porMinutoChave": dados.limitePorMinutoChave,
                "porMinutoIntegrador": dados.limitePorMinutoIntegrador,
            },
        }
    # loading it again (every `vitrine migrate`) changes nothing
    assert await catalogo.sincronizar() == []
    assert await Plano.filter(codigo="essencial").count() == 1


async def test_a_new_integrator_is_on_the_free_plan_with_a_monthly_cycle(client, integrator):
    atual = await get(client, "/plano", integrator.key)
    assert atual["ambiente"] == "teste" and atual["plano"]["codigo"] == "gratuito" and atual["mudancaAgendada"] is None
    inicio, fim = parse_timestamp(atual["cicloInicioEm"]), parse_timestamp(atual["cicloFimEm"])
    assert fim == ciclo.somar_meses(inicio, 1)
    cota = await get(client, "/cota-do-mes", integrator.key)
    assert cota == {
        "ambiente": "teste",
        "cotaMensal": 0,
        "creditosUsados": 0,
        "creditosRestantes": 0,
        "percentualUsado": 0,
        "cicloInicioEm": atual["cicloInicioEm"],
        "cicloFimEm": atual["cicloFimEm"],
        "alertasAtingidos": [],
    }
    saldo = await get(client, "/saldo", integrator.key)
    # the play credits of teste are package credits: they never expire with the cycle
    assert (saldo["creditosPlano"], saldo["creditosPacote"], saldo["creditosDisponiveis"]) == (0, 1000, 1000)


async def test_upgrade_is_immediate_with_the_difference_granted(client, factory, integrator):
    await factory.plano(integrator, "essencial")
    antes = await get(client, "/plano", integrator.key)
    saldo = await get(client, "/saldo", integrator.key)
    assert antes["plano"]["codigo"] == "essencial"
    assert (saldo["creditosPlano"], saldo["creditosPacote"]) == (500, 1000)
    await reservar(integrator, "ger_up1", 300)  # plan credits first: 200 left in the plan pool
    await factory.plano(integrator, "profissional")
    depois = await get(client, "/plano", integrator.key)
    assert depois["plano"]["codigo"] == "profissional"
    assert (depois["cicloInicioEm"], depois["cicloFimEm"]) == (
        antes["cicloInicioEm"],
        antes["cicloFimEm"],
    )  # same cycle
    cota = await get(client, "/cota-do-mes", integrator.key)
    assert (cota["cotaMensal"], cota["creditosUsados"], cota["creditosRestantes"]) == (2000, 300, 1700)
    extrato = await get(client, "/extrato?tipo=concessao_plano", integrator.key)
    assert [(e["creditosDisponiveis"], e["creditosPlano"]) for e in extrato] == [(1500, 1500), (500, 500)]
    assert "diferença de 1500 créditos" in extrato[0]["descricao"]
    await assert_ledger_is_the_balance(integrator.id)


async def test_downgrade_waits_for_the_next_cycle_and_can_be_cancelled(client, factory, integrator, relogio):
    await factory.plano(integrator, "profissional")
    await factory.plano(integrator, "essencial")
    atual = await get(client, "/plano", integrator.key)
    assert atual["plano"]["codigo"] == "profissional"
    assert (
        atual["mudancaAgendada"]["plano"]["codigo"] == "essencial" and atual["mudancaAgendada"]["motivo"] == "reducao"
    )
    assert atual["mudancaAgendada"]["aplicaEm"] == atual["cicloFimEm"]
    assert (await get(client, "/cota-do-mes", integrator.key))["cotaMensal"] == 2000  # nothing taken now
    await planos.cancelar_mudanca(integrator.id, "teste")
    assert (await get(client, "/plano", integrator.key))["mudancaAgendada"] is None
    # scheduled again, then the cycle ends: the next one is on the smaller plan
    await factory.plano(integrator, "essencial")
    await reservar(integrator, "ger_down1", 500)
    relogio.ate(parse_timestamp(atual["cicloFimEm"]) + timedelta(seconds=1))
    novo = await get(client, "/plano", integrator.key)
    assert novo["plano"]["codigo"] == "essencial" and novo["mudancaAgendada"] is None
    assert novo["cicloInicioEm"] == atual["cicloFimEm"]
    cota = await get(client, "/cota-do-mes", integrator.key)
    assert (cota["cotaMensal"], cota["creditosUsados"], cota["creditosRestantes"]) == (500, 0, 500)
    extrato = await get(client, "/extrato", integrator.key)
    expiracao, concessao = extrato[1], extrato[0]
    assert (expiracao["tipo"], expiracao["creditosDisponiveis"], expiracao["creditosPlano"]) == (
        "expiracao_plano",
        -1500,
        -1500,
    )
    assert expiracao["criadoEm"] == atual["cicloFimEm"]  # dated at the cycle's end
    assert (concessao["tipo"], concessao["creditosPlano"], concessao["criadoEm"]) == (
        "concessao_plano",
        500,
        novo["cicloInicioEm"],
    )
    await assert_ledger_is_the_balance(integrator.id)


async def test_the_same_plan_cancels_a_scheduled_change_and_unknown_plans_are_refused(client, factory, integrator):
    await factory.plano(integrator, "escala")
    await factory.plano(integrator, "gratuito")
    assert (await get(client, "/plano", integrator.key))["mudancaAgendada"]["plano"]["codigo"] == "gratuito"
    await factory.plano(integrator, "escala")
    assert (await get(client, "/plano", integrator.key))["mudancaAgendada"] is None
    from graphql_api.core.errors import ApiError

    with pytest.raises(ApiError) as error:
        await factory.plano(integrator, "platina")
    assert error.value.type == "VALIDATION_FAILED" and error.value.fields[0].campo == "plano"
    assert "essencial" in error.value.fields[0].mensagem


async def test_unused_plan_credits_expire_at_the_cycle_end_and_package_credits_stay(
    client, factory, integrator, relogio
):
    await factory.plano(integrator, "essencial")
    await reservar(integrator, "ger_exp1", 120)
    await liquidar(integrator, "ger_exp1", 120, 120)  # 120 plan credits spent
    atual = await get(client, "/plano", integrator.key)
    relogio.ate(parse_timestamp(atual["cicloFimEm"]))  # the end itself belongs to the next cycle
    saldo = await get(client, "/saldo", integrator.key)  # a read turns the cycle (no scheduler needed)
    assert (saldo["creditosPlano"], saldo["creditosPacote"]) == (500, 1000)
    tipos = [
        (e["tipo"], e["creditosPlano"], e["creditosPacote"])
        for e in await get(client, "/extrato?limite=3", integrator.key)
    ]
    assert tipos == [("concessao_plano", 500, 0), ("expiracao_plano", -380, 0), ("captura", 0, 0)]
    # several months asleep: the cycle that holds now, and one expiry for the one that ended
    relogio.avancar(days=100)
    atual = await get(client, "/plano", integrator.key)
    inicio, fim = parse_timestamp(atual["cicloInicioEm"]), parse_timestamp(atual["cicloFimEm"])
    assert inicio <= relogio.agora() < fim
    entradas = await get(client, "/extrato?limite=2", integrator.key)
    assert [(e["tipo"], e["creditosPlano"]) for e in entradas] == [("concessao_plano", 500), ("expiracao_plano", -500)]
    await assert_ledger_is_the_balance(integrator.id)


async def test_spending_takes_plan_credits_first_then_package_credits(client, factory, integrator):
    await factory.plano(integrator, "essencial")
    await reservar(integrator, "ger_ord1", 600)
    [reserva] = await get(client, "/extrato?tipo=reserva", integrator.key)
    assert (reserva["creditosDisponiveis"], reserva["creditosPlano"], reserva["creditosPacote"]) == (-600, -500, -100)
    assert reserva["creditosReservados"] == 600 and reserva["disponiveisApos"] == 900
    # 550 delivered: the plan credits are captured first, so what comes back is package credits
    await liquidar(integrator, "ger_ord1", 600, 550)
    [liberacao] = await get(client, "/extrato?tipo=liberacao", integrator.key)
    assert (liberacao["creditosPlano"], liberacao["creditosPacote"]) == (0, 50)
    # a failed generation gives back plan credits to the plan pool, in the same cycle
    await reservar(integrator, "ger_ord2", 10)
    await liquidar(integrator, "ger_ord2", 10, 0)
    saldo = await get(client, "/saldo", integrator.key)
    assert (saldo["creditosPlano"], saldo["creditosPacote"]) == (0, 950)
    await assert_ledger_is_the_balance(integrator.id)


async def test_plan_credits_of_a_generation_running_at_the_turn_expire_when_they_come_back(
    client, factory, integrator, relogio
):
    await factory.plano(integrator, "essencial")
    await factory.ajustar(integrator, -1000)  # no package credits: 500 plan credits only
    await reservar(integrator, "ger_turn1", 40)
    atual = await get(client, "/plano", integrator.key)
    relogio.ate(parse_timestamp(atual["cicloFimEm"]) + timedelta(minutes=1))
    saldo = await get(client, "/saldo", integrator.key)
    # the reservation is kept whole through the turn: never lost, never negative
    assert (saldo["creditosPlano"], saldo["creditosReservados"]) == (500, 40)
    await liquidar(integrator, "ger_turn1", 40, 30)  # 30 delivered, 10 not used
    saldo = await get(client, "/saldo", integrator.key)
    assert (saldo["creditosPlano"], saldo["creditosPacote"], saldo["creditosReservados"]) == (500, 0, 0)
    ultimas = await get(client, "/extrato?limite=2", integrator.key)
    assert [(e["tipo"], e["creditosDisponiveis"], e["creditosReservados"]) for e in ultimas] == [
        ("expiracao_plano", 0, -10),
        ("captura", 0, -30),
    ]
    await assert_ledger_is_the_balance(integrator.id)


async def test_quota_thresholds_passed_in_the_cycle(client, factory, integrator, relogio):
    await factory.plano(integrator, "essencial")  # 500
    await reservar(integrator, "ger_q1", 340)  # 68 %
    cota = await get(client, "/cota-do-mes", integrator.key)
    assert (cota["percentualUsado"], cota["alertasAtingidos"]) == (68, [])
    await reservar(integrator, "ger_q2", 10)  # 70 %
    await reservar(integrator, "ger_q3", 110)  # 92 %
    cota = await get(client, "/cota-do-mes", integrator.key)
    assert (cota["creditosUsados"], cota["percentualUsado"], cota["alertasAtingidos"]) == (460, 92, [70, 90])
    await liquidar(integrator, "ger_q3", 110, 0)  # back to 70 %: a threshold passed stays passed this cycle
    assert (await get(client, "/cota-do-mes", integrator.key))["alertasAtingidos"] == [70, 90]
    assert (await Assinatura.get(integrador_id=integrator.id, ambiente="teste")).alertas_cota == [70, 90]
    await reservar(integrator, "ger_q4", 700)  # the quota is gone, package credits pay the rest
    cota = await get(client, "/cota-do-mes", integrator.key)
    assert (cota["creditosRestantes"], cota["percentualUsado"], cota["alertasAtingidos"]) == (0, 100, [70, 90, 100])
    relogio.ate(parse_timestamp(cota["cicloFimEm"]))
    assert (await get(client, "/cota-do-mes", integrator.key))["alertasAtingidos"] == []  # a new cycle


async def test_the_periodic_job_turns_ended_cycles_once(client, factory, integrator, relogio):
    await factory.plano(integrator, "essencial")
    fim = parse_timestamp((await get(client, "/plano", integrator.key))["cicloFimEm"])
    relogio.ate(fim + timedelta(seconds=1))
    bus = factory.runtime.bus
    primeiro = await planos.virar_ciclos(bus=bus, lote=10_000)
    assert primeiro["ciclosVirados"] >= 1
    assinatura = await Assinatura.get(integrador_id=integrator.id, ambiente="teste")
    assert assinatura.ciclo_inicio_em == fim
    antes = await Lancamento.filter(carteira__integrador_id=integrator.id).count()
    await planos.virar_ciclos(bus=bus, lote=10_000)  # again, and a read: nothing more happens
    await get(client, "/saldo", integrator.key)
    assert await Lancamento.filter(carteira__integrador_id=integrator.id).count() == antes
    await assert_ledger_is_the_balance(integrator.id)


async def test_integrators_from_before_plans_get_a_subscription_on_first_use(client, integrator):
    await Assinatura.filter(integrador_id=integrator.id).delete()
    atual = await get(client, "/plano", integrator.key)
    assert atual["plano"]["codigo"] == "gratuito"
    assert await Assinatura.filter(integrador_id=integrator.id).count() == 1  # only the environment used


async def test_production_mirrors_teste_with_its_own_subscription(client, factory, integrator):
    from graphql_api.core.principal import Ambiente

    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    await factory.plano(integrator, "profissional", ambiente="producao")
    assert (await get(client, "/plano", live))["plano"]["codigo"] == "profissional"
    assert (await get(client, "/plano", integrator.key))["plano"]["codigo"] == "gratuito"
    saldo = await get(client, "/saldo", live)
    assert (saldo["ambiente"], saldo["creditosPlano"], saldo["creditosPacote"]) == ("producao", 2000, 0)
    await assert_ledger_is_the_balance(integrator.id, "producao")


async def test_rate_limit_comes_from_the_plan_and_a_staff_override_wins(client, factory, integrator):
    from graphql_api.integrador import service as integradores

    response = await client.get("/v1/saldo", headers=integrator.headers)
    assert response.headers["X-RateLimit-Limit"] == str(CATALOGO["gratuito"].limitePorMinutoChave)
    await factory.plano(integrator, "escala")  # the change clears the cached limits at once
    response = await client.get("/v1/saldo", headers=integrator.headers)
    assert response.headers["X-RateLimit-Limit"] == str(CATALOGO["escala"].limitePorMinutoChave)
    await integradores.definir_limites(integrator.id, por_chave=7, por_integrador=None, bus=factory.runtime.bus)
    response = await client.get("/v1/saldo", headers=integrator.headers)
    assert response.headers["X-RateLimit-Limit"] == "7"


async def test_oauth_tokens_get_403_on_every_billing_route_and_see_the_plan_limits(client, factory, integrator, oauth):
    app = await oauth.app(integrator)
    token = (await oauth.tokens(app, await oauth.consentir(app)))["access_token"]
    for path in ("/planos", "/plano", "/cota-do-mes", "/saldo", "/extrato", "/extrato?tipo=reserva"):
        response = await client.get(f"/v1{path}", headers=auth(token))
        assert response.status == 403, path
        assert_error(await response.json(), "FORBIDDEN")
    await factory.plano(integrator, "profissional")
    response = await client.get("/v1/contas", headers=auth(token))
    assert response.status == 200
    assert response.headers["X-RateLimit-Limit"] == str(CATALOGO["profissional"].limitePorMinutoChave)


async def test_a_new_version_applies_to_subscribers_at_their_next_cycle(client, factory, integrator, relogio):
    await factory.plano(integrator, "essencial")
    codigo = "essencial"
    versao_atual = await Plano.get(codigo=codigo, vigente=True)
    novo = await catalogo.publicar_versao({"codigo": codigo, "creditosMensais": versao_atual.creditos_mensais + 100})
    assert novo.versao == versao_atual.versao + 1
    assert (
        await catalogo.publicar_versao({"codigo": codigo, "creditosMensais": novo.creditos_mensais})
    ).id == novo.id  # no change: no version
    oferecido = next(p for p in await get(client, "/planos", integrator.key) if p["codigo"] == codigo)
    assert (oferecido["versao"], oferecido["creditosMensais"]) == (novo.versao, novo.creditos_mensais)
    atual = await get(client, "/plano", integrator.key)
    assert atual["plano"]["versao"] == versao_atual.versao  # kept until the cycle ends
    assert (
        atual["mudancaAgendada"]["motivo"] == "nova_versao"
        and atual["mudancaAgendada"]["plano"]["versao"] == novo.versao
    )
    relogio.ate(parse_timestamp(atual["cicloFimEm"]))
    depois = await get(client, "/plano", integrator.key)
    assert depois["plano"]["versao"] == novo.versao and depois["mudancaAgendada"] is None
    assert (await get(client, "/cota-do-mes", integrator.key))["cotaMensal"] == novo.creditos_mensais
    # undo for the other tests: the catalogue is shared by the session
    await catalogo.publicar_versao({"codigo": codigo, "creditosMensais": versao_atual.creditos_mensais})


STAFF_MUDAR = """mutation($id: String!, $amb: String!, $plano: String!) {
  mudarPlanoIntegrador(integradorId: $id, ambiente: $amb, plano: $plano, motivo: "Negociação comercial") {
    plano { codigo } mudancaAgendada { plano { codigo } motivo } } }"""
STAFF_AJUSTE = """mutation($entrada: AjusteCreditosInput!) {
  ajustarCreditos(entrada: $entrada) { creditosDisponiveis creditosPlano creditosPacote } }"""


async def test_staff_change_plans_and_adjust_wallets_through_graphql_recorded(client, integrator):
    token = await staff_token()
    status, body = await graphql(client, token, STAFF_MUDAR, id=integrator.id, amb="teste", plano="profissional")
    assert status == 200 and body["data"]["mudarPlanoIntegrador"]["plano"]["codigo"] == "profissional", body
    _, body = await graphql(client, token, STAFF_MUDAR, id=integrator.id, amb="teste", plano="essencial")
    assert body["data"]["mudarPlanoIntegrador"]["mudancaAgendada"] == {
        "plano": {"codigo": "essencial"},
        "motivo": "reducao",
    }
    _, body = await graphql(client, token, STAFF_MUDAR, id=integrator.id, amb="lua", plano="essencial")
    assert body["errors"][0]["extensions"]["type"] == "VALIDATION_FAILED"
    entrada = {
        "integradorId": integrator.id,
        "ambiente": "teste",
        "creditos": -200,
        "motivo": "Estorno de cortesia",
        "bolso": "pacote",
    }
    _, body = await graphql(client, token, STAFF_AJUSTE, entrada=entrada)
    assert body["data"]["ajustarCreditos"] == {
        "creditosDisponiveis": 2800,
        "creditosPlano": 2000,
        "creditosPacote": 800,
    }
    _, body = await graphql(client, token, STAFF_AJUSTE, entrada=entrada | {"creditos": -900})
    assert body["errors"][0]["extensions"]["type"] == "VALIDATION_FAILED"  # a pool never goes below zero
    assert "800" in body["errors"][0]["extensions"]["fields"][0]["mensagem"]
    [ajuste] = await get(client, "/extrato?tipo=ajuste", integrator.key)
    assert ajuste["descricao"] == "Ajuste da equipe: Estorno de cortesia" and ajuste["creditosPacote"] == -200
    _, body = await graphql(client, token, "{ acoesEquipe(limite: 10) { acao alvo motivo } }")
    acoes = [a["acao"] for a in body["data"]["acoesEquipe"]]
    assert {"mudar_plano", "ajustar_creditos"} <= set(acoes)
    _, body = await graphql(client, token, "{ catalogoPlanos(todasVersoes: true) { codigo versao } }")
    assert {p["codigo"] for p in body["data"]["catalogoPlanos"]} >= set(CATALOGO)
    # a key of the integrator reaches none of this
    status, body = await graphql(client, integrator.key, STAFF_MUDAR, id=integrator.id, amb="teste", plano="escala")
    assert status == 403
    await assert_ledger_is_the_balance(integrator.id)


async def test_concurrent_reads_and_the_job_turn_a_cycle_once(client, factory, integrator, relogio):
    import asyncio

    await factory.plano(integrator, "essencial")
    await reservar(integrator, "ger_conc1", 100)
    fim = parse_timestamp((await get(client, "/plano", integrator.key))["cicloFimEm"])
    relogio.ate(fim + timedelta(seconds=5))
    paths = ["/saldo", "/plano", "/cota-do-mes", "/extrato"] * 3
    respostas = await asyncio.gather(
        *(client.get(f"/v1{p}", headers=integrator.headers) for p in paths),
        planos.virar_ciclos(bus=factory.runtime.bus, lote=10_000),
    )
    assert all(r.status == 200 for r in respostas[:-1])
    tipos = [e["tipo"] for e in await get(client, "/extrato?limite=3", integrator.key)]
    assert tipos == ["concessao_plano", "expiracao_plano", "reserva"]  # one turn, whoever came first
    saldo = await get(client, "/saldo", integrator.key)
    assert (saldo["creditosPlano"], saldo["creditosReservados"]) == (500, 100)
    await assert_ledger_is_the_balance(integrator.id)
