"""Notices, from the integrator's side: addresses over /v1, signed deliveries to a real HTTPS
receiver that verifies them with `standardwebhooks`, retries, 410, alerts by real SMTP."""

from __future__ import annotations

import asyncio
import base64
import json
from datetime import UTC, datetime, timedelta

import pytest

from graphql_api.aviso.entregas import agenda_nominal
from graphql_api.aviso.models import Aviso, Entrega
from graphql_api.aviso.testes import situacao_assinatura
from graphql_api.core.context import Context
from graphql_api.core.errors import ApiError
from graphql_api.core.principal import ALL_SCOPES, OAUTH_SCOPES, Ambiente, CredentialKind, Principal
from graphql_api.core.transactions import transaction
from graphql_api.evento.amostras import amostra
from graphql_api.evento.catalog import EVENT_TYPES
from graphql_api.executor import Operation, run
from graphql_api.operations import aviso as ops
from portal import avisos as portal_avisos
from tests.api.test_auth import assert_error
from tests.factories import eventually
from tests.receptor import Receptor


async def registrar(client, integrator, receptor, eventos=("geracao.concluida",)) -> dict:
    response = await client.put(
        "/v1/avisos", json={"url": receptor.url, "eventos": list(eventos)}, headers=integrator.headers
    )
    assert response.status == 201, await response.text()
    aviso = (await response.json())["data"]
    receptor.segredos.append(aviso["segredo"])
    return aviso


async def entregas(client, integrator, aviso_id: str) -> list[dict]:
    response = await client.get(f"/v1/avisos/{aviso_id}/entregas", headers=integrator.headers)
    assert response.status == 200
    return (await response.json())["data"]


# ---------------------------------------------------------------- addresses


async def test_first_registration_shows_the_secret_once_and_the_same_url_updates(client, integrator, receptor):
    # given a first registration
    aviso = await registrar(client, integrator, receptor, ["geracao.concluida"])
    assert aviso["id"].startswith("avs_") and aviso["segredo"].startswith("whsec_")
    assert len(base64.b64decode(aviso["segredo"].removeprefix("whsec_"))) == 32
    assert aviso["situacao"] == "ativo" and aviso["eventos"] == ["geracao.concluida"]
    # when the same url is registered again, by POST this time
    response = await client.post(
        "/v1/avisos",
        json={"url": receptor.url, "eventos": ["geracao.falhou", "produto.conferido"]},
        headers=integrator.headers,
    )
    # then it is updated, without a new secret, and never duplicated
    assert response.status == 200
    updated = (await response.json())["data"]
    assert updated["id"] == aviso["id"] and "segredo" not in updated
    assert updated["eventos"] == ["geracao.falhou", "produto.conferido"]
    listed = await (await client.get("/v1/avisos", headers=integrator.headers)).json()
    assert [a["id"] for a in listed["data"]] == [aviso["id"]] and "segredo" not in listed["data"][0]
    one = await (await client.get(f"/v1/avisos/{aviso['id']}", headers=integrator.headers)).json()
    assert one["data"] == updated | {"atualizadoEm": one["data"]["atualizadoEm"]}


async def test_concurrent_first_registrations_of_one_url_create_one_address(client, integrator, receptor):
    payload = {"url": receptor.url, "eventos": ["geracao.concluida"]}
    responses = await asyncio.gather(
        *(client.put("/v1/avisos", json=payload, headers=integrator.headers) for _ in range(3))
    )
    assert sorted(r.status for r in responses) == [200, 200, 201]
    assert await Aviso.filter(integrador_id=integrator.id).count() == 1


async def test_the_secret_is_stored_encrypted_only(client, integrator, receptor):
    aviso = await registrar(client, integrator, receptor)
    row = await Aviso.get(id=aviso["id"])
    key_b64 = aviso["segredo"].removeprefix("whsec_")
    assert key_b64 not in row.segredo_cifrado and aviso["segredo"] not in row.segredo_cifrado
    assert row.segredo_cifrado.startswith("gAAAA")  # a Fernet token

    # and the call log keeps the response without it
    async def logged():
        body = await (await client.get("/v1/integracao/chamadas?endpoint=/avisos", headers=integrator.headers)).json()
        assert body["data"]
        return body["data"][0]["requestId"]

    request_id = await eventually(logged)
    detail = (await (await client.get(f"/v1/integracao/chamadas/{request_id}", headers=integrator.headers)).json())[
        "data"
    ]
    logged_body = json.dumps(detail["corpoRecebido"])
    assert key_b64 not in logged_body and "whsec_" in logged_body


async def test_bad_registrations_are_422_with_field_errors(client, integrator, receptor):
    cases = [
        ({"url": "http://exemplo.com.br/avisos", "eventos": ["geracao.concluida"]}, {"url": "url_nao_https"}),
        ({"url": receptor.url, "eventos": ["geracao.concluida", "pedido.pago"]}, {"eventos": "valor_invalido"}),
        ({"url": receptor.url, "eventos": []}, {"eventos": "muito_curto"}),
        ({"url": "https://user:senha@exemplo.com.br/"}, {"url": "formato_invalido", "eventos": "obrigatorio"}),
    ]
    for payload, expected in cases:
        response = await client.put("/v1/avisos", json=payload, headers=integrator.headers)
        assert response.status == 422, payload
        body = await response.json()
        assert_error(body, "VALIDATION_FAILED")
        assert {f["campo"]: f["codigo"] for f in body["error"]["fields"]} == expected, payload
    assert (await (await client.get("/v1/avisos", headers=integrator.headers)).json())["data"] == []


async def test_private_addresses_are_refused_after_resolution(client, factory, integrator, monkeypatch):
    # The suite allows private addresses (its receivers run on 127.0.0.1); production does not.
    monkeypatch.setattr(factory.runtime.outbound, "allow_private", False)
    for url in ("https://127.0.0.1/avisos", "https://10.1.2.3/x", "https://[::1]/x", "https://localhost:8443/avisos"):
        response = await client.put(
            "/v1/avisos", json={"url": url, "eventos": ["geracao.concluida"]}, headers=integrator.headers
        )
        assert response.status == 422, url
        [problem] = (await response.json())["error"]["fields"]
        assert (problem["campo"], problem["codigo"]) == ("url", "endereco_proibido"), url


async def test_addresses_belong_to_one_integrator_and_environment(client, factory, integrator, receptor):
    aviso = await registrar(client, integrator, receptor)
    stranger = await factory.integrator()
    assert (await client.get(f"/v1/avisos/{aviso['id']}", headers=stranger.headers)).status == 404
    assert (await client.delete(f"/v1/avisos/{aviso['id']}", headers=stranger.headers)).status == 404
    # then the owner removes it
    assert (await client.delete(f"/v1/avisos/{aviso['id']}", headers=integrator.headers)).status == 204
    assert (await client.get(f"/v1/avisos/{aviso['id']}", headers=integrator.headers)).status == 404


async def test_oauth_tokens_get_403_on_every_notice_operation(client, factory, integrator):
    # OAuth itself is another issue: its principal is built here as the OAuth door will build it.
    oauth = Principal(
        kind=CredentialKind.OAUTH,
        ambiente=Ambiente.TESTE,
        scopes=OAUTH_SCOPES | {"avisos:gerenciar"},
        integrador_id=integrator.id,
        conta_id="cta_x",
    )
    context = Context(runtime=factory.runtime, principal=oauth)
    operations = [
        (ops.REGISTRAR_AVISO, {"dados": {"url": "https://exemplo.com.br/", "eventos": ["geracao.concluida"]}}),
        (ops.LISTAR_AVISOS, {}),
        (ops.OBTER_AVISO, {"id": "avs_x"}),
        (ops.REMOVER_AVISO, {"id": "avs_x"}),
        (ops.ROTACIONAR_SEGREDO, {"id": "avs_x"}),
        (ops.LISTAR_ENTREGAS, {"avisoId": "avs_x"}),
        (ops.REENVIAR_ENTREGA, {"avisoId": "avs_x", "entregaId": "ent_x"}),
        (ops.TESTAR_AVISO, {}),
        (ops.OBTER_TESTE, {"id": "tst_x"}),
        (portal_avisos.TESTES, {"avisoId": "avs_x"}),
        (Operation("query { eventosAviso { nome } }"), {}),
    ]
    for operation, variables in operations:
        with pytest.raises(ApiError) as refused:
            await run(operation, context, variables)
        assert refused.value.type == "FORBIDDEN" and refused.value.status == 403
    # and the integrator's own key passes the same check
    key = Principal(
        kind=CredentialKind.API_KEY, ambiente=Ambiente.TESTE, scopes=ALL_SCOPES, integrador_id=integrator.id
    )
    assert (await run(ops.LISTAR_AVISOS, Context(runtime=factory.runtime, principal=key), {}))["avisos"]["itens"] == []


# ---------------------------------------------------------------- deliveries


async def test_an_event_is_delivered_signed_with_the_contract_payload(client, factory, integrator, receptor):
    # given an address for geracao.concluida and one of another integrator
    aviso = await registrar(client, integrator, receptor, ["geracao.concluida"])
    conta = await factory.conta(integrator)
    # when a generation finishes (and another event nobody subscribed to happens)
    evento = await factory.evento(integrator, "geracao.concluida", conta_id=conta["id"])
    await factory.evento(integrator, "geracao.falhou")

    async def delivered():
        assert [e["situacao"] for e in await entregas(client, integrator, aviso["id"])] == ["entregue"]

    await eventually(delivered, timeout=15)
    # then the receiver verified it with standardwebhooks and got the contract's payload
    [recebido] = receptor.recebidos
    assert recebido.valido is True
    assert recebido.evento == {
        "id": evento.id,
        "tipo": "geracao.concluida",
        "criadoEm": recebido.evento["criadoEm"],
        "contaId": conta["id"],
        "data": amostra("geracao.concluida").dados.model_dump(mode="json"),
    }
    assert recebido.cabecalhos["x-vitrine-signature"] == recebido.cabecalhos["webhook-signature"]
    assert recebido.cabecalhos["content-type"] == "application/json"
    assert abs(int(recebido.cabecalhos["webhook-timestamp"]) - datetime.now(UTC).timestamp()) < 30
    [entrega] = await entregas(client, integrator, aviso["id"])
    assert entrega["id"] == recebido.webhook_id and entrega["eventoId"] == evento.id
    assert entrega["ultimoStatus"] == 204 and len(entrega["tentativas"]) == 1
    assert entrega["tentativas"][0]["status"] == 204 and entrega["tentativas"][0]["duracaoMs"] > 0


async def test_events_of_a_linked_account_carry_its_conta_id(client, factory, integrator, receptor):
    aviso = await registrar(client, integrator, receptor, ["produto.conferido"])
    vinculada = await factory.conta_vinculada(integrator)
    await factory.evento(integrator, "produto.conferido", conta_id=vinculada.id)

    async def delivered():
        assert [e["situacao"] for e in await entregas(client, integrator, aviso["id"])] == ["entregue"]

    await eventually(delivered, timeout=15)
    assert vinculada.origem == "vinculada"
    assert receptor.recebidos[0].evento["contaId"] == vinculada.id and receptor.recebidos[0].valido


async def test_failures_are_retried_with_the_same_webhook_id_honouring_retry_after(
    client, factory, integrator, receptor
):
    # given a receiver that fails twice (the second time asking for 2 s) before accepting
    aviso = await registrar(client, integrator, receptor)
    receptor.respostas = [(500, {}), (503, {"Retry-After": "2"})]
    # when an event happens
    await factory.evento(integrator)

    async def delivered():
        assert [e["situacao"] for e in await entregas(client, integrator, aviso["id"])] == ["entregue"]

    await eventually(delivered, timeout=20)
    # then three attempts arrived with one webhook-id, each signed anew and valid
    assert len(receptor.recebidos) == 3 and len(set(receptor.ids())) == 1
    assert all(r.valido for r in receptor.recebidos)
    assert receptor.recebidos[2].chegou - receptor.recebidos[1].chegou >= 2.0  # Retry-After honoured
    [entrega] = await entregas(client, integrator, aviso["id"])
    assert [t["status"] for t in entrega["tentativas"]] == [500, 503, 204]
    assert entrega["tentativas"][0]["resposta"] == "resposta roteirizada"
    assert entrega["id"] == receptor.ids()[0]


async def test_an_unreachable_address_is_retried_and_recorded(client, factory, integrator, receptor):
    # given an address on a port where nothing listens
    receptor.url = "https://localhost:1/avisos"
    aviso = await registrar(client, integrator, receptor)
    await factory.evento(integrator)

    async def retried():
        [entrega] = await entregas(client, integrator, aviso["id"])
        assert len(entrega["tentativas"]) >= 2
        return entrega

    entrega = await eventually(retried, timeout=15)
    assert entrega["situacao"] in ("pendente", "enviando")
    # told apart from a wrong answer: Vitrine did not reach the server, and says why
    for tentativa in entrega["tentativas"][:2]:
        assert tentativa["status"] is None and tentativa["falha"] == "recusada"
        assert tentativa["erro"].startswith("conexao_recusada")
        assert tentativa["motivoFalha"].startswith("Não alcançamos seu servidor: o servidor recusou a conexão")
    assert (await client.get(f"/v1/avisos/{aviso['id']}", headers=integrator.headers)).status == 200
    assert (await Aviso.get(id=aviso["id"])).falhando_desde is not None


async def test_410_switches_the_address_off_and_emails_the_integrator(
    client, factory, integrator, receptor, smtp_inbox
):
    # given an address that answers 410 Gone
    aviso = await registrar(client, integrator, receptor)
    receptor.respostas = [(410, {})]
    await factory.evento(integrator)

    async def switched_off():
        data = (await (await client.get(f"/v1/avisos/{aviso['id']}", headers=integrator.headers)).json())["data"]
        assert data["situacao"] == "desativado"
        return data

    data = await eventually(switched_off, timeout=15)
    assert "410" in data["motivoDesativacao"] and data["desativadoEm"]

    # then the integrator is told by e-mail through the real SMTP server
    async def mailed():
        assert any("desativado" in m["Subject"] for m in smtp_inbox)

    await eventually(mailed, timeout=15)
    message = next(m for m in smtp_inbox if "desativado" in m["Subject"])
    assert message["To"] == "dev@integradora.test" and receptor.url in message.get_content()
    # and later events create no delivery for it; redelivery is refused until re-registration
    await factory.evento(integrator)
    [entrega] = await entregas(client, integrator, aviso["id"])
    assert entrega["situacao"] == "falhou" and entrega["ultimoStatus"] == 410
    response = await client.post(
        f"/v1/avisos/{aviso['id']}/entregas/{entrega['id']}/reenvio", headers=integrator.headers
    )
    assert response.status == 409 and (await response.json())["error"]["type"] == "NOTICE_ADDRESS_DISABLED"
    again = await client.put(
        "/v1/avisos", json={"url": receptor.url, "eventos": ["geracao.concluida"]}, headers=integrator.headers
    )
    assert again.status == 200 and (await again.json())["data"]["situacao"] == "ativo"


async def test_an_address_failing_for_an_hour_triggers_one_alert_email(
    client, factory, integrator, receptor, smtp_inbox
):
    # given an address that keeps answering 500
    aviso = await registrar(client, integrator, receptor)
    receptor.respostas = [(500, {})] * 50
    await factory.evento(integrator)

    async def failing():
        row = await Aviso.get(id=aviso["id"])
        assert row.falhando_desde is not None
        return row

    row = await eventually(failing, timeout=15)
    assert not [m for m in smtp_inbox if "falhando" in m["Subject"]]  # not after seconds
    # when an hour has passed since the first failure (time moved in the database)
    await Aviso.filter(id=row.id).update(falhando_desde=row.falhando_desde - timedelta(minutes=61))

    async def alerted():
        assert [m for m in smtp_inbox if "falhando" in m["Subject"]]

    await eventually(alerted, timeout=15)
    # then one e-mail reached the integrator's contact, and only one
    [message] = [m for m in smtp_inbox if "falhando" in m["Subject"]]
    assert message["To"] == "dev@integradora.test"
    assert receptor.url in message["Subject"] and "HTTP 500" in message.get_content()
    assert (await Aviso.get(id=row.id)).alerta_falha_em is not None
    # and more failures after it send no second alert
    later = await factory.evento(integrator)

    async def attempted():
        assert await Entrega.filter(evento_id=later.id, tentativas__gte=1).exists()

    await eventually(attempted, timeout=10)
    await asyncio.sleep(0.5)  # a few more sweeps
    assert len([m for m in smtp_inbox if "falhando" in m["Subject"]]) == 1
    # the alert is open in the integration status, and closes when the address answers again
    status = (await (await client.get("/v1/integracao/status", headers=integrator.headers)).json())["data"]
    assert [(a["tipo"], a["evidencia"]["avisoId"]) for a in status["alertasAbertos"]] == [
        ("aviso_falhando", aviso["id"])
    ]
    receptor.respostas = []
    await factory.evento(integrator)

    async def closed():
        status = (await (await client.get("/v1/integracao/status", headers=integrator.headers)).json())["data"]
        assert status["alertasAbertos"] == []

    await eventually(closed, timeout=15)


async def test_retries_end_after_the_schedule_and_the_address_is_switched_off_after_72h(
    client, factory, integrator, receptor, settings
):
    # the schedule: exponential, capped, adding up to at least 24 hours
    agenda = agenda_nominal(settings.model_copy(update={"aviso_backoff_base_segundos": 10.0}))
    assert agenda[:4] == [10.0, 30.0, 90.0, 270.0] and max(agenda) == 6 * 3600 and sum(agenda) >= 24 * 3600
    # given a delivery on its last attempt, to an address failing for 3 days
    aviso = await registrar(client, integrator, receptor)
    receptor.respostas = [(500, {})] * 5
    last = len(agenda_nominal(settings))
    await Aviso.filter(id=aviso["id"]).update(
        falhando_desde=datetime.now(UTC) - timedelta(hours=73), alerta_falha_em=datetime.now(UTC)
    )
    async with transaction():  # the first attempt is queued when this commits
        evento = await factory.evento(integrator)
        await Entrega.filter(evento_id=evento.id).update(tentativas=last)

    async def gave_up():
        [entrega] = await entregas(client, integrator, aviso["id"])
        assert entrega["situacao"] == "falhou" and entrega["proximaTentativaEm"] is None
        return entrega

    entrega = await eventually(gave_up, timeout=15)
    assert entrega["tentativas"][-1]["numero"] == last + 1
    data = (await (await client.get(f"/v1/avisos/{aviso['id']}", headers=integrator.headers)).json())["data"]
    assert data["situacao"] == "desativado" and "72 horas" in data["motivoDesativacao"]


async def test_manual_redelivery_sends_again_with_the_same_id(client, factory, integrator, receptor):
    aviso = await registrar(client, integrator, receptor)
    await factory.evento(integrator)

    async def delivered():
        [entrega] = await entregas(client, integrator, aviso["id"])
        assert entrega["situacao"] == "entregue"
        return entrega

    entrega = await eventually(delivered, timeout=15)
    response = await client.post(
        f"/v1/avisos/{aviso['id']}/entregas/{entrega['id']}/reenvio", headers=integrator.headers
    )
    assert response.status == 202
    assert (await response.json())["data"]["id"] == entrega["id"]

    async def twice():
        assert len(receptor.recebidos) == 2 and (await delivered())["ultimoStatus"] == 204

    await eventually(twice, timeout=15)
    assert receptor.ids() == [entrega["id"], entrega["id"]] and all(r.valido for r in receptor.recebidos)
    missing = await client.post(f"/v1/avisos/{aviso['id']}/entregas/ent_nao_existe/reenvio", headers=integrator.headers)
    assert missing.status == 404
    # removing the address removes its deliveries with it
    assert (await client.delete(f"/v1/avisos/{aviso['id']}", headers=integrator.headers)).status == 204
    assert not await Entrega.filter(aviso_id=aviso["id"]).exists()


async def test_rotation_sends_both_signatures_during_the_grace_period(client, factory, integrator, receptor):
    aviso = await registrar(client, integrator, receptor)
    old = receptor.segredos[0]
    response = await client.post(
        f"/v1/avisos/{aviso['id']}/segredo/rotacao", json={"carenciaHoras": 2}, headers=integrator.headers
    )
    assert response.status == 200
    rotated = (await response.json())["data"]
    assert rotated["segredo"].startswith("whsec_") and rotated["segredo"] != old
    assert rotated["segredoAnteriorExpiraEm"]
    await factory.evento(integrator)
    await eventually(lambda: _received(receptor, 1), timeout=15)
    recebido = receptor.recebidos[0]
    assert len(recebido.cabecalhos["webhook-signature"].split(" ")) == 2
    # both the old and the new secret verify it, each on its own
    assert Receptor(old).verificar(recebido.corpo, recebido.cabecalhos)
    assert Receptor(rotated["segredo"]).verificar(recebido.corpo, recebido.cabecalhos)
    # once the grace period is over the previous secret is not kept
    await Aviso.filter(id=aviso["id"]).update(segredo_anterior_expira_em=datetime.now(UTC) - timedelta(seconds=1))

    async def dropped():
        assert (await Aviso.get(id=aviso["id"])).segredo_anterior_cifrado is None

    await eventually(dropped)
    # a rotation without grace drops the old secret at once
    response = await client.post(
        f"/v1/avisos/{aviso['id']}/segredo/rotacao", json={"carenciaHoras": 0}, headers=integrator.headers
    )
    newest = (await response.json())["data"]
    assert newest["segredoAnteriorExpiraEm"] is None
    await factory.evento(integrator)
    await eventually(lambda: _received(receptor, 2), timeout=15)
    second = receptor.recebidos[1]
    assert len(second.cabecalhos["webhook-signature"].split(" ")) == 1
    assert Receptor(newest["segredo"]).verificar(second.corpo, second.cabecalhos)
    assert not Receptor(rotated["segredo"]).verificar(second.corpo, second.cabecalhos)
    bad = await client.post(
        f"/v1/avisos/{aviso['id']}/segredo/rotacao", json={"carenciaHoras": 1000}, headers=integrator.headers
    )
    assert bad.status == 422


async def _received(receptor: Receptor, n: int) -> None:
    assert len(receptor.recebidos) >= n


async def test_a_delivery_left_in_flight_is_taken_back_by_the_sweep(client, factory, integrator, receptor):
    # given a delivery that a worker claimed and then died on (its row says enviando, long ago)
    aviso = await registrar(client, integrator, receptor)
    async with transaction():
        evento = await factory.evento(integrator)
        await Entrega.filter(evento_id=evento.id).update(
            situacao="enviando", tentativas=1, reserva="morto", em_voo_desde=datetime.now(UTC) - timedelta(minutes=5)
        )

    async def delivered():
        [entrega] = await entregas(client, integrator, aviso["id"])
        assert entrega["situacao"] == "entregue"
        return entrega

    entrega = await eventually(delivered, timeout=15)
    # then it arrived once, with its original id, after an attempt recorded as interrupted
    assert receptor.ids() == [entrega["id"]]
    assert [t["numero"] for t in entrega["tentativas"]] == [1, 2]
    assert entrega["tentativas"][0]["erro"].startswith("interrompida")


async def test_a_worker_killed_mid_delivery_loses_nothing(client, factory, integrator, receptor, worker_process):
    # given a receiver that holds the first request until the worker is gone
    aviso = await registrar(client, integrator, receptor)
    receptor.espera = 5
    await factory.evento(integrator)
    await eventually(lambda: _received(receptor, 1), timeout=15)
    # when the worker is killed mid-delivery and a new one starts
    worker_process.kill()
    receptor.espera = 0
    worker_process.start()

    async def delivered():
        [entrega] = await entregas(client, integrator, aviso["id"])
        assert entrega["situacao"] == "entregue"
        return entrega

    entrega = await eventually(delivered, timeout=30)
    # then the delivery arrived again with the same webhook-id, and the lost attempt is on record
    assert receptor.ids() == [entrega["id"], entrega["id"]]
    assert all(r.valido for r in receptor.recebidos)
    assert entrega["tentativas"][0]["erro"].startswith("interrompida")
    assert entrega["tentativas"][-1]["status"] == 204


# ---------------------------------------------------------------- test deliveries


async def wait_tests(client, integrator, ids: list[str]) -> list[dict]:
    async def done():
        results = [
            (await (await client.get(f"/v1/testes-de-avisos/{i}", headers=integrator.headers)).json())["data"]
            for i in ids
        ]
        assert all(r["situacao"] == "concluido" for r in results)
        return results

    return await eventually(done, timeout=15)


async def test_the_three_test_deliveries_against_a_correct_receiver(client, integrator, receptor):
    aviso = await registrar(client, integrator, receptor)
    response = await client.post("/v1/avisos/teste", headers=integrator.headers)
    assert response.status == 202
    testes = (await response.json())["data"]
    assert [t["caso"] for t in testes] == ["valida", "assinatura_errada", "timestamp_antigo"]
    assert all(t["id"].startswith("tst_") and t["situacao"] == "pendente" for t in testes)
    results = {r["caso"]: r for r in await wait_tests(client, integrator, [t["id"] for t in testes])}
    assert results["valida"]["resposta"]["status"] == 204 and results["valida"]["esperado"] == "2XX"
    assert results["assinatura_errada"]["resposta"]["status"] == 401
    assert results["timestamp_antigo"]["resposta"]["status"] == 401
    assert all(r["veredito"] == "passou" for r in results.values())
    old = int(results["timestamp_antigo"]["enviado"]["cabecalhos"]["webhook-timestamp"])
    assert 590 <= datetime.now(UTC).timestamp() - old <= 660
    sent = results["valida"]["enviado"]
    assert sent["cabecalhos"]["webhook-id"] == results["valida"]["id"]
    assert '"tipo":"aviso.teste"' in sent["corpo"]
    caso = {t["id"]: t["caso"] for t in testes}
    assert {caso[r.webhook_id]: r.valido for r in receptor.recebidos} == {
        "valida": True,
        "assinatura_errada": False,
        "timestamp_antigo": False,
    }
    situacao = await situacao_assinatura(integrator.id, "teste")
    assert situacao.situacao == "ok" and situacao.ultima_falha is None and len(situacao.testes) == 3
    assert (await situacao_assinatura(integrator.id, "producao")).situacao == "pendente"
    assert aviso["situacao"] == "ativo"
    # and the AVISOS_ASSINATURA integration step turned ok, with the tests as evidence
    etapa = await etapa_avisos(client, integrator, "ok")
    assert all(t["id"] in etapa["evidencia"]["eventId"] for t in testes)


async def test_a_receiver_that_accepts_everything_fails_the_test(client, integrator, receptor):
    await registrar(client, integrator, receptor)
    receptor.respostas = [(200, {})] * 3  # answers 200 without checking anything
    testes = (await (await client.post("/v1/avisos/teste", headers=integrator.headers)).json())["data"]
    results = {r["caso"]: r for r in await wait_tests(client, integrator, [t["id"] for t in testes])}
    assert results["valida"]["veredito"] == "passou"
    assert results["assinatura_errada"]["veredito"] == "falhou" and results["timestamp_antigo"]["veredito"] == "falhou"
    situacao = await situacao_assinatura(integrator.id, "teste")
    assert situacao.situacao == "falhou" and "assinatura_errada" in situacao.ultima_falha
    etapa = await etapa_avisos(client, integrator, "falhou")
    assert "assinatura_errada" in etapa["ultimaFalha"] and "timestamp_antigo" in etapa["ultimaFalha"]


async def etapa_avisos(client, integrator, situacao: str) -> dict:
    async def check():
        data = (await (await client.get("/v1/integracao/status", headers=integrator.headers)).json())["data"]
        etapa = next(e for e in data["etapas"] if e["codigo"] == "AVISOS_ASSINATURA")
        assert etapa["situacao"] == situacao, etapa
        return etapa

    return await eventually(check)


async def test_testing_needs_an_active_address(client, factory, integrator):
    response = await client.post("/v1/avisos/teste", headers=integrator.headers)
    assert response.status == 409
    assert_error(await response.json(), "NOTICE_ADDRESS_REQUIRED")
    assert (await situacao_assinatura(integrator.id, "teste")).situacao == "pendente"
    stranger = await factory.integrator()
    assert (await client.get("/v1/testes-de-avisos/tst_nao_existe", headers=stranger.headers)).status == 404


# ---------------------------------------------------------------- the receiver example of the docs


async def test_the_documented_receiver_passes_the_three_test_deliveries(client, integrator, https_server, monkeypatch):
    from pathlib import Path

    from aiohttp import web

    source = Path(__file__).resolve().parents[2] / "docs" / "avisos.md"
    example = source.read_text().split("<!-- receptor:inicio -->")[1].split("<!-- receptor:fim -->")[0]
    code = example.split("```python")[1].split("```")[0]
    # given the example serving at an address (its handler is bound once the secret is known)
    handler = {}

    async def forward(request):
        return await handler["receber_aviso"](request)

    app = web.Application()
    app.router.add_post("/avisos", forward)
    url = await https_server(app) + "/avisos"
    response = await client.put(
        "/v1/avisos", json={"url": url, "eventos": list(EVENT_TYPES)}, headers=integrator.headers
    )
    monkeypatch.setenv("VITRINE_SEGREDO_AVISOS", (await response.json())["data"]["segredo"])
    namespace: dict = {}
    exec(compile(code, str(source), "exec"), namespace)
    handler["receber_aviso"] = namespace["receber_aviso"]
    # when the three test deliveries are sent
    testes = (await (await client.post("/v1/avisos/teste", headers=integrator.headers)).json())["data"]
    results = await wait_tests(client, integrator, [t["id"] for t in testes])
    # then each was answered as expected
    assert [r["veredito"] for r in results] == ["passou", "passou", "passou"]
    assert (await situacao_assinatura(integrator.id, "teste")).situacao == "ok"
