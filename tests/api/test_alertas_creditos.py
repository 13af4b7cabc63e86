"""Credit and quota alerts from the integrator's side: the events `creditos.baixos` and
`cota.alerta` delivered signed to a real receiver, the quota e-mails at 70, 90 and 100 % and the
e-mail about packages bought in two consecutive cycles, through the real SMTP server, shown in
`alertasAbertos` and closed by themselves; cycles moved with the injected clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from graphql_api.core.ids import new_id
from graphql_api.core.relogio import agora
from graphql_api.core.scalars import parse_timestamp
from graphql_api.creditos import alertas
from graphql_api.email.models import Email
from graphql_api.evento.models import Evento
from tests.api.test_avisos import entregas, registrar
from tests.api.test_integracao import status
from tests.api.test_planos import get, liquidar, reservar
from tests.api.test_recargas import SEGREDO, comprar, confirmar, live  # noqa: F401 (the fixture)
from tests.factories import auth, eventually
from tests.harness import BACKEND
from vitrine.settings import Settings


@pytest.fixture
def settings() -> Settings:
    """The service with a payment provider's secret: production purchases confirmed by webhook."""
    return Settings(pagamento_segredo=SEGREDO)


async def eventos(integrator, tipo: str, ambiente: str = "teste") -> list[dict]:
    rows = await Evento.filter(integrador_id=integrator.id, ambiente=ambiente, tipo=tipo).order_by("criado_em", "id")
    return [row.dados for row in rows]


async def abertos(client, integrator, key=None) -> dict[str, dict]:
    return {a["tipo"]: a for a in (await status(client, integrator, key))["alertasAbertos"]}


def mails(smtp_inbox, trecho: str) -> list:
    return [m for m in smtp_inbox if trecho in m["Subject"]]


async def galeria(client, factory, integrator, produto: dict, imagens: int) -> str:
    response = await client.post(
        "/v1/galerias",
        json={"produtoId": produto["id"], "quantidadeImagens": imagens},
        headers=auth(integrator.key, **{"Idempotency-Key": new_id("idem-")}),
    )
    assert response.status == 201, await response.text()
    geracao_id = (await response.json())["data"]["id"]
    await factory.terminada(integrator.key, geracao_id)
    return geracao_id


async def test_quota_thresholds_notify_once_each_and_email_the_contacts(
    client, factory, integrator, aprovado, receptor, smtp_inbox, relogio
):
    # given an address for the two credit events and the Essencial plan (500 credits a month)
    aviso = await registrar(client, integrator, receptor, ["cota.alerta", "creditos.baixos"])
    await factory.plano(integrator, "essencial")
    await factory.ajustar(integrator, -340, bolso="plano")  # 340 of the quota gone, 68 %
    assert await eventos(integrator, "cota.alerta") == []
    # when a gallery over HTTP takes 10 more (70 %)
    await galeria(client, factory, integrator, aprovado, 5)

    async def delivered():
        assert [e["situacao"] for e in await entregas(client, integrator, aviso["id"])] == ["entregue"]

    await eventually(delivered, timeout=15)
    # then cota.alerta arrives signed, with the documented payload
    [recebido] = receptor.recebidos
    assert recebido.valido is True and recebido.evento["tipo"] == "cota.alerta"
    plano = await get(client, "/plano", integrator.key)
    assert recebido.evento["data"] == {
        "ambiente": "teste",
        "limiar": 70,
        "percentualUsado": 70,
        "cotaMensal": 500,
        "creditosUsados": 350,
        "creditosRestantes": 150,
        "creditosPacote": 1000,
        "cicloInicioEm": plano["cicloInicioEm"],
        "cicloFimEm": plano["cicloFimEm"],
    }
    # and the contacts get one e-mail; the alert is open in the status
    await eventually(lambda: um_email(smtp_inbox, "70% da cota"), timeout=15)
    message = mails(smtp_inbox, "70% da cota")[0]
    assert message["To"] == "dev@integradora.test"
    assert "350 de 500 créditos" in message.get_content() and "Restam 150 créditos do plano" in message.get_content()
    alerta = await eventually(lambda: aberto(client, integrator, "cota_70"), timeout=15)
    assert alerta["evidencia"] == {"limiar": 70, "cotaMensal": 500, "creditosUsados": 350}

    # spending inside the same threshold: no second event, no second e-mail
    await reservar(integrator, "ger_q1", 20)
    assert [e["limiar"] for e in await eventos(integrator, "cota.alerta")] == [70]
    # past 90 and 100 at once: one event per threshold, the 90 % e-mail replaced by the 100 % one
    await reservar(integrator, "ger_q2", 200)
    assert [e["limiar"] for e in await eventos(integrator, "cota.alerta")] == [70, 90, 100]
    await eventually(lambda: um_email(smtp_inbox, "100% da cota"), timeout=15)
    assert "Os créditos do plano acabaram" in mails(smtp_inbox, "100% da cota")[0].get_content()
    assert set(await abertos(client, integrator)) == {"cota_100"}  # the 70 % alert closed itself
    assert (await get(client, "/cota-do-mes", integrator.key))["alertasAtingidos"] == [70, 90, 100]
    # the play credits are still there: not low
    assert await eventos(integrator, "creditos.baixos") == []

    # when the cycle ends, the quota's alert closes and the thresholds count again
    await liquidar(integrator, "ger_q2", 200, 200)
    relogio.ate(parse_timestamp(plano["cicloFimEm"]) + timedelta(seconds=1))
    assert (await get(client, "/cota-do-mes", integrator.key))["alertasAtingidos"] == []
    assert await abertos(client, integrator) == {}
    await reservar(integrator, "ger_q3", 350)
    assert [e["limiar"] for e in await eventos(integrator, "cota.alerta")] == [70, 90, 100, 70]
    novo = (await get(client, "/plano", integrator.key))["cicloInicioEm"]
    assert (await eventos(integrator, "cota.alerta"))[-1]["cicloInicioEm"] == novo
    await eventually(lambda: aberto(client, integrator, "cota_70"), timeout=15)


async def test_an_upgrade_closes_the_quota_alert_it_moves_below(client, factory, integrator, smtp_inbox):
    await factory.plano(integrator, "essencial")
    await reservar(integrator, "ger_u1", 460)  # 92 %
    await eventually(lambda: aberto(client, integrator, "cota_90"), timeout=15)
    await factory.plano(integrator, "profissional")  # 460 of 2000: 23 %
    assert await abertos(client, integrator) == {}
    assert (await get(client, "/cota-do-mes", integrator.key))["alertasAtingidos"] == []


async def test_a_quota_alert_reopened_within_six_hours_is_not_emailed_again(
    client, factory, integrator, smtp_inbox, relogio
):
    """The contract: at most one e-mail per kind every 6 hours, however often the alert reopens."""

    async def emails_70() -> int:
        return await Email.filter(integrador_id=integrator.id, tipo="alerta_cota_70").count()

    await factory.plano(integrator, "essencial")
    await reservar(integrator, "ger_s1", 350)  # 350 of 500: 70 %
    await eventually(lambda: aberto(client, integrator, "cota_70"), timeout=15)
    assert await emails_70() == 1
    await factory.plano(integrator, "profissional")  # 350 of 2000: the alert closes
    assert await abertos(client, integrator) == {}
    # 5 hours later, 70 % of the new quota: the alert is open again, with no second e-mail
    relogio.avancar(hours=5)
    await reservar(integrator, "ger_s2", 1050)  # 1400 of 2000
    await eventually(lambda: aberto(client, integrator, "cota_70"), timeout=15)
    assert await emails_70() == 1
    if BACKEND == "postgres":
        return  # the e-mail is decided by the separate worker, whose clock the test cannot move
    # past the 6 hours, the next reopening is e-mailed
    await factory.plano(integrator, "escala")  # 1400 of 8000: closes
    assert await abertos(client, integrator) == {}
    relogio.avancar(hours=2)
    await reservar(integrator, "ger_s3", 4200)  # 5600 of 8000
    await eventually(lambda: aberto(client, integrator, "cota_70"), timeout=15)
    assert await emails_70() == 2


async def test_low_credits_notify_once_and_again_only_after_rising_above(client, factory, integrator, receptor):
    # the free plan has no quota: the threshold is the floor, 50 credits
    aviso = await registrar(client, integrator, receptor, ["creditos.baixos"])
    await factory.ajustar(integrator, -940)  # 60 left
    assert await eventos(integrator, "creditos.baixos") == []
    await reservar(integrator, "ger_b1", 20)  # 40: below

    async def delivered():
        assert [e["situacao"] for e in await entregas(client, integrator, aviso["id"])] == ["entregue"]

    await eventually(delivered, timeout=15)
    [recebido] = receptor.recebidos
    assert recebido.valido is True and recebido.evento["tipo"] == "creditos.baixos"
    assert recebido.evento["data"] == {
        "ambiente": "teste",
        "creditosDisponiveis": 40,
        "creditosPlano": 0,
        "creditosPacote": 40,
        "creditosReservados": 20,
        "limite": 50,
        "cotaMensal": 0,
    }
    # lower still: nothing more
    await reservar(integrator, "ger_b2", 10)
    assert len(await eventos(integrator, "creditos.baixos")) == 1
    # above again (a refill), then below: a second one
    await factory.ajustar(integrator, 100)  # 130
    assert (await get(client, "/saldo", integrator.key))["creditosDisponiveis"] == 130
    await reservar(integrator, "ger_b3", 120)
    baixos = await eventos(integrator, "creditos.baixos")
    assert [e["creditosDisponiveis"] for e in baixos] == [40, 10]


async def test_a_bigger_quota_raises_the_threshold(client, factory, integrator):
    # Escala: 8000 a month, the threshold is 10 % of it
    await factory.plano(integrator, "escala")
    assert alertas.limite_creditos_baixos(8000) == 800
    await reservar(integrator, "ger_e1", 8000 + 1000 - 799)  # 799 left
    [baixo] = await eventos(integrator, "creditos.baixos")
    assert (baixo["limite"], baixo["creditosDisponiveis"], baixo["cotaMensal"]) == (800, 799, 8000)


async def test_a_package_in_two_consecutive_cycles_emails_the_cheaper_plan(
    client, factory, integrator, live, smtp_inbox, relogio
):
    # a first package in production, 400 credits used of it in the cycle: no alert yet
    primeira = await comprar(client, live, "pacote_10000")
    assert (await confirmar(client, primeira["id"])).status == 200
    await reservar(integrator, "ger_p1", 400, ambiente="producao")
    await liquidar(integrator, "ger_p1", 400, 400, ambiente="producao")
    assert await abertos(client, integrator, live) == {}
    # the next cycle, another package
    plano = await get(client, "/plano", live)
    relogio.ate(parse_timestamp(plano["cicloFimEm"]) + timedelta(hours=1))
    segunda = await comprar(client, live, "pacote_500")
    assert (await confirmar(client, segunda["id"], quando=agora())).status == 200
    # then the contacts are told the Essencial plan (500 a month, R$ 99) would have cost less
    alerta = await eventually(lambda: aberto(client, integrator, "pacote_recorrente", live), timeout=15)
    assert alerta["evidencia"] == {
        "planoAtual": "gratuito",
        "pagoCentavos": 79000 + 4900,
        "usoMaximo": 400,
        "recargas": [primeira["id"], segunda["id"]],
        "planoSugerido": "essencial",
        "custoSugeridoCentavos": 19800,
    }
    await eventually(lambda: um_email(smtp_inbox, "dois ciclos seguidos"), timeout=15)
    texto = mails(smtp_inbox, "dois ciclos seguidos")[0].get_content()
    assert "O plano Essencial" in texto and "R$ 198,00" in texto and "R$ 641,00 a menos" in texto
    assert "R$ 839,00" in texto and "pacote_10000" in texto
    # taking the suggestion closes it
    await factory.plano(integrator, "essencial", ambiente="producao")
    assert "pacote_recorrente" not in await abertos(client, integrator, live)


async def test_repeated_packages_without_a_cheaper_plan_still_tell_it(
    client, factory, integrator, live, smtp_inbox, relogio
):
    # heavy use: 9000 credits a cycle; no plan of the catalogue covers it for less than the packages
    await comprar_e_pagar(client, live, "pacote_10000")
    await reservar(integrator, "ger_h1", 9000, ambiente="producao")
    await liquidar(integrator, "ger_h1", 9000, 9000, ambiente="producao")
    plano = await get(client, "/plano", live)
    relogio.ate(parse_timestamp(plano["cicloFimEm"]) + timedelta(hours=1))
    await comprar_e_pagar(client, live, "pacote_10000")
    alerta = await eventually(lambda: aberto(client, integrator, "pacote_recorrente", live), timeout=15)
    assert "planoSugerido" not in alerta["evidencia"]
    assert "Nenhum plano do catálogo teria custado menos" in alerta["mensagem"]


# -- helpers -----------------------------------------------------------------------------------------


async def comprar_e_pagar(client, key: str, pacote: str) -> dict:
    recarga = await comprar(client, key, pacote)
    assert await confirmar(client, recarga["id"], quando=agora())  # the service's clock.status == 200
    return recarga


async def um_email(smtp_inbox, trecho: str) -> None:
    assert len(mails(smtp_inbox, trecho)) == 1, [m["Subject"] for m in smtp_inbox]


async def aberto(client, integrator, tipo: str, key=None) -> dict:
    alerta = (await abertos(client, integrator, key)).get(tipo)
    assert alerta is not None
    return alerta
