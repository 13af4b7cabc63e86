"""Integration steps judged from real calls, production access, live keys, staff actions."""

from datetime import UTC, datetime, timedelta

import pytest

from graphql_api.chamada.models import Chamada
from graphql_api.core.principal import Ambiente
from graphql_api.core.transactions import transaction
from graphql_api.evento import service as eventos
from graphql_api.evento.amostras import amostra
from graphql_api.evento.models import Evento
from graphql_api.evento.payloads import DadosGeracaoConcluida
from graphql_api.integracao import service as integracao
from graphql_api.integracao.models import Espera429, EtapaIntegracao
from tests.api.test_auth import assert_error
from tests.factories import auth, eventually
from tests.fichas import RICA, fotos


async def status(client, integrator, key=None):
    response = await client.get("/v1/integracao/status", headers=auth(key or integrator.key))
    assert response.status == 200, await response.text()
    return (await response.json())["data"]


def step(data, codigo):
    return next(e for e in data["etapas"] if e["codigo"] == codigo)


async def wait_step(client, integrator, codigo, situacao):
    async def check():
        data = await status(client, integrator)
        assert step(data, codigo)["situacao"] == situacao, step(data, codigo)
        return step(data, codigo)

    return await eventually(check)


async def test_initial_status_has_the_contract_shape(client, integrator):
    data = await status(client, integrator)
    assert data["ambiente"] == "teste" and data["etapasObrigatorias"] == 8
    assert [e["codigo"] for e in data["etapas"]] == [
        "CHAVE_E_PRIMEIRA_CHAMADA",
        "SUBCONTA_CRIADA",
        "PRODUTO_APROVADO",
        "GALERIA_TESTE",
        "VIDEO_TESTE",
        "AVISOS_ASSINATURA",
        "IDEMPOTENCIA",
        "LIMITE_429",
    ]
    assert data["producao"]["situacao"] == "bloqueada" and data["producao"]["liberacao"] is None
    assert data["producao"]["motivo"]
    for etapa in data["etapas"]:
        assert etapa["comoConcluir"] and etapa["documentacao"].endswith(f"/docs/integracao#{etapa['codigo']}")
    assert data["alertasAbertos"] == []


async def test_key_and_account_steps_turn_ok_with_evidence(client, integrator):
    first = await client.get("/v1/saldo", headers=integrator.headers)
    etapa = await wait_step(client, integrator, "CHAVE_E_PRIMEIRA_CHAMADA", "ok")
    assert etapa["evidencia"]["requestId"] == first.headers["X-Request-Id"] and etapa["verificadoEm"]
    created = await client.post("/v1/contas", json={"codigoExterno": "c", "nome": "n"}, headers=integrator.headers)
    etapa = await wait_step(client, integrator, "SUBCONTA_CRIADA", "ok")
    assert etapa["evidencia"]["requestId"] == created.headers["X-Request-Id"]


async def test_steps_of_production_calls_do_not_count(client, factory):
    integrator = await factory.integrator()
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    response = await client.get("/v1/saldo", headers=auth(live))
    await eventually(lambda: _logged(client, live, response.headers["X-Request-Id"]))
    assert step(await status(client, integrator), "CHAVE_E_PRIMEIRA_CHAMADA")["situacao"] == "pendente"


async def _logged(client, key, request_id):
    response = await client.get(f"/v1/integracao/chamadas/{request_id}", headers=auth(key))
    assert response.status == 200


async def test_idempotency_step_fails_without_the_key_and_recovers_after_seven_days(client, integrator):
    body = {"codigoExterno": "idem", "nome": "n"}
    for _ in range(2):
        await client.post("/v1/contas", json=body, headers=auth(integrator.key, **{"Idempotency-Key": "repetida-123"}))
    await wait_step(client, integrator, "IDEMPOTENCIA", "ok")
    missing = await client.post(
        "/v1/galerias", json={"produtoId": "prd_x", "quantidadeImagens": 5}, headers=integrator.headers
    )
    assert missing.status == 400
    assert_error(await missing.json(), "IDEMPOTENCY_KEY_REQUIRED")
    etapa = await wait_step(client, integrator, "IDEMPOTENCIA", "falhou")
    assert missing.headers["X-Request-Id"] in etapa["ultimaFalha"] and "Idempotency-Key" in etapa["ultimaFalha"]
    # seven days without another such call: ok again (the window moves with time, not with calls)
    row = await EtapaIntegracao.get(integrador_id=integrator.id, codigo="IDEMPOTENCIA")
    estado = dict(row.estado)
    moment = integracao._parse(estado["ultimaSemChave"]["em"]) - timedelta(days=7, seconds=1)
    estado["ultimaSemChave"] = {**estado["ultimaSemChave"], "em": integracao._ts(moment)}
    await EtapaIntegracao.filter(id=row.id).update(estado=estado)
    assert step(await status(client, integrator), "IDEMPOTENCIA")["situacao"] == "ok"


async def test_limit_429_step_fails_when_retry_after_is_ignored_and_passes_when_respected(client, integrator):
    forced = auth(integrator.key, **{"X-Vitrine-Teste": "forcar-429"})
    first = await client.get("/v1/saldo", headers=forced)
    assert first.status == 429 and first.headers["Retry-After"] == "5"
    early = await client.get("/v1/saldo", headers=integrator.headers)
    etapa = await wait_step(client, integrator, "LIMITE_429", "falhou")
    assert early.headers["X-Request-Id"] in etapa["ultimaFalha"] and "antes" in etapa["ultimaFalha"]
    second = await client.get("/v1/saldo", headers=forced)

    async def waiting():
        espera = await Espera429.get_or_none(request_id=second.headers["X-Request-Id"])
        assert espera is not None
        return espera

    espera = await eventually(waiting)
    # the integrator waits the Retry-After (the wait is shortened by moving the deadline back)
    await Espera429.filter(id=espera.id).update(ate=espera.ate - timedelta(seconds=10))
    patient = await client.get("/v1/saldo", headers=integrator.headers)
    etapa = await wait_step(client, integrator, "LIMITE_429", "ok")
    assert etapa["evidencia"]["requestId"] == patient.headers["X-Request-Id"]


async def test_product_step_follows_the_real_quality_check(client, factory, integrator, photo_site):
    conta = await factory.conta(integrator)
    # a ficha with no photos: every media type rejected, the step says why
    pobre = await factory.produto(integrator, conta, nome="Sem fotos")
    await factory.conferido(integrator, pobre)
    etapa = await wait_step(client, integrator, "PRODUTO_APROVADO", "falhou")
    assert pobre["id"] in etapa["ultimaFalha"]
    # a rich ficha with sharp photos: approved, with the event as evidence
    rica = await factory.produto(integrator, conta, **RICA, imagens=fotos(photo_site, 1, 2, 3, 4, 5, 6))
    await factory.conferido(integrator, rica)
    etapa = await wait_step(client, integrator, "PRODUTO_APROVADO", "ok")
    evento = await Evento.get(id=etapa["evidencia"]["eventId"])
    assert evento.tipo == "produto.conferido" and evento.dados["produto"]["id"] == rica["id"]


def _galeria(geracao_id: str) -> DadosGeracaoConcluida:
    dados = amostra("geracao.concluida").dados
    assert isinstance(dados, DadosGeracaoConcluida)
    return dados.model_copy(update={"id": geracao_id})


async def test_generation_steps_count_test_generations_only(client, integrator):
    async with transaction():
        await eventos.registrar(
            "geracao.concluida",
            integrador_id=integrator.id,
            ambiente="producao",
            conta_id=None,
            dados=_galeria("ger_prod"),
        )
        evento = await eventos.registrar(
            "geracao.concluida", integrador_id=integrator.id, ambiente="teste", conta_id=None, dados=_galeria("ger_1")
        )
    etapa = await wait_step(client, integrator, "GALERIA_TESTE", "ok")
    assert etapa["evidencia"] == {"eventId": evento.id, "geracaoId": "ger_1"}
    assert step(await status(client, integrator), "VIDEO_TESTE")["situacao"] == "pendente"


async def test_production_request_lists_every_missing_step(client, integrator):
    await client.get("/v1/saldo", headers=integrator.headers)
    await wait_step(client, integrator, "CHAVE_E_PRIMEIRA_CHAMADA", "ok")
    response = await client.post("/v1/integracao/pedido-producao", headers=integrator.headers)
    assert response.status == 409
    body = await response.json()
    assert_error(body, "INTEGRATION_STEPS_PENDING")
    fields = body["error"]["fields"]
    assert {f["codigo"] for f in fields} == {
        "SUBCONTA_CRIADA",
        "PRODUTO_APROVADO",
        "GALERIA_TESTE",
        "VIDEO_TESTE",
        "AVISOS_ASSINATURA",
        "IDEMPOTENCIA",
        "LIMITE_429",
    }
    assert all(f["campo"] == "etapas" and f["mensagem"] for f in fields)


async def _all_steps_ok(integrator_id: str) -> None:
    """Shortcut for the release rules below; the full journey is tested end to end."""
    for etapa in integracao.ETAPAS:
        await EtapaIntegracao.update_or_create(
            integrador_id=integrator_id,
            codigo=etapa.codigo,
            defaults={
                "situacao": "ok",
                "evidencia": {"requestId": "req_x"},
                "estado": {
                    "ultimaRepeticao": {"em": "2026-01-01T00:00:00.000Z", "requestId": "req_x", "endpoint": "/contas"}
                },
            },
        )


async def test_release_is_automatic_and_repeatable_and_live_keys_need_the_contract(client, factory, integrator):
    from graphql_api.chave import service as chaves
    from graphql_api.core.errors import ApiError
    from graphql_api.integracao import contrato

    with pytest.raises(ApiError) as refused:
        await chaves.criar_chave(integrator.id, Ambiente.PRODUCAO)
    assert refused.value.type == "PRODUCTION_NOT_RELEASED"
    await _all_steps_ok(integrator.id)
    response = await client.post("/v1/integracao/pedido-producao", headers=integrator.headers)
    assert response.status == 200
    producao = (await response.json())["data"]["producao"]
    assert producao["situacao"] == "liberada" and producao["liberacao"] == "automatica" and producao["liberadaEm"]
    again = await client.post("/v1/integracao/pedido-producao", headers=integrator.headers)
    assert (await again.json())["data"]["producao"] == producao
    with pytest.raises(ApiError) as no_contract:
        await chaves.criar_chave(integrator.id, Ambiente.PRODUCAO)
    assert no_contract.value.type == "CONTRACT_NOT_ACCEPTED"
    await contrato.aceitar(integrator.id, (await contrato.vigente()).versao, por="Maria")
    _, live = await chaves.criar_chave(integrator.id, Ambiente.PRODUCAO)
    assert live.startswith("sk_live_")
    assert (await (await client.get("/v1/saldo", headers=auth(live))).json())["data"]["ambiente"] == "producao"


async def test_environments_are_isolated_both_ways(client, factory, integrator):
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    test_conta = await factory.conta(integrator, codigo_externo="so-teste")
    live_conta = (
        await (
            await client.post("/v1/contas", json={"codigoExterno": "so-prod", "nome": "P"}, headers=auth(live))
        ).json()
    )["data"]
    assert live_conta["ambiente"] == "producao"
    assert (await client.get(f"/v1/contas/{test_conta['id']}", headers=auth(live))).status == 404
    assert (await client.get(f"/v1/contas/{live_conta['id']}", headers=integrator.headers)).status == 404
    test_list = [
        c["codigoExterno"] for c in (await (await client.get("/v1/contas", headers=integrator.headers)).json())["data"]
    ]
    live_list = [
        c["codigoExterno"] for c in (await (await client.get("/v1/contas", headers=auth(live))).json())["data"]
    ]
    assert test_list == ["so-teste"] and live_list == ["so-prod"]
    # the same codigoExterno may exist once per environment
    assert (
        await client.post("/v1/contas", json={"codigoExterno": "so-teste", "nome": "P"}, headers=auth(live))
    ).status == 201


STAFF_PAUSE = "mutation($id: String!, $motivo: String!) { pausarIntegrador(id: $id, motivo: $motivo) { situacao } }"


async def staff_token():
    from graphql_api.equipe import service as equipe

    _, token = await equipe.criar_membro("Ana da Equipe")
    return token


async def graphql(client, token, query, **variables):
    response = await client.post("/graphql", json={"query": query, "variables": variables}, headers=auth(token))
    return response.status, await response.json()


async def test_graphql_endpoint_is_for_staff_only(client, integrator):
    response = await client.post("/graphql", json={"query": "{ contratoVigente { versao } }"})
    assert response.status == 401
    response = await client.post(
        "/graphql", json={"query": "{ contratoVigente { versao } }"}, headers=integrator.headers
    )
    assert response.status == 403
    assert_error(await response.json(), "FORBIDDEN")
    status_code, body = await graphql(client, await staff_token(), "{ contratoVigente { versao titulo } }")
    assert status_code == 200 and body["data"]["contratoVigente"]["versao"] >= 1


async def test_staff_pause_and_suspension_take_effect_and_are_recorded(client, factory, integrator):
    token = await staff_token()
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    _, body = await graphql(
        client,
        token,
        'mutation($id: String!) { suspenderProducao(id: $id, motivo: "Abuso de limites") { producaoSituacao } }',
        id=integrator.id,
    )
    assert body["data"]["suspenderProducao"]["producaoSituacao"] == "suspensa"
    response = await client.get("/v1/saldo", headers=auth(live))
    assert response.status == 403
    assert_error(await response.json(), "FORBIDDEN")
    assert (await client.get("/v1/saldo", headers=integrator.headers)).status == 200  # test keeps working
    data = await status(client, integrator)
    assert data["producao"]["situacao"] == "suspensa" and data["producao"]["motivo"] == "Abuso de limites"
    await graphql(
        client, token, "mutation($id: String!) { restaurarProducao(id: $id) { producaoSituacao } }", id=integrator.id
    )
    assert (await client.get("/v1/saldo", headers=auth(live))).status == 200
    _, body = await graphql(client, token, STAFF_PAUSE, id=integrator.id, motivo="Fatura em aberto")
    assert body["data"]["pausarIntegrador"]["situacao"] == "pausado"
    for key in (integrator.key, live):
        response = await client.get("/v1/contas", headers=auth(key))
        assert response.status == 403
        assert_error(await response.json(), "INTEGRATOR_PAUSED")
    _, body = await graphql(client, token, "{ acoesEquipe(limite: 10) { acao alvo motivo membroId em } }")
    acoes = [(a["acao"], a["alvo"], a["motivo"]) for a in body["data"]["acoesEquipe"]]
    assert ("pausar_integrador", integrator.id, "Fatura em aberto") in acoes
    assert ("suspender_producao", integrator.id, "Abuso de limites") in acoes
    assert ("restaurar_producao", integrator.id, None) in acoes


async def test_staff_actions_need_a_reason_and_new_contract_versions_need_a_new_acceptance(client, factory, integrator):
    token = await staff_token()
    _, body = await graphql(client, token, STAFF_PAUSE, id=integrator.id, motivo=" ")
    assert body["errors"][0]["extensions"]["type"] == "VALIDATION_FAILED"
    await factory.released(integrator)
    _, body = await graphql(
        client,
        token,
        'mutation { publicarContrato(titulo: "v nova", texto: "Cláusulas novas.") { versao publicadoPor } }',
    )
    assert body["data"]["publicarContrato"]["publicadoPor"]
    from graphql_api.chave import service as chaves
    from graphql_api.core.errors import ApiError

    with pytest.raises(ApiError) as refused:
        await chaves.criar_chave(integrator.id, Ambiente.PRODUCAO)
    assert (
        refused.value.type == "CONTRACT_NOT_ACCEPTED"
        and str(body["data"]["publicarContrato"]["versao"]) in refused.value.description
    )


async def test_error_rate_alert_opens_emails_and_closes(client, factory, smtp_inbox):
    integrator = await factory.integrator(limite_chave=1000, limite_integrador=1000)
    for _ in range(40):
        await client.get("/v1/saldo", headers=integrator.headers)
    for _ in range(15):
        await client.get("/v1/nao-existe", headers=integrator.headers)

    async def opened():
        integracao._last_rate_check.clear()
        await client.get("/v1/nao-existe", headers=integrator.headers)
        alerts = (await status(client, integrator))["alertasAbertos"]
        assert [a["tipo"] for a in alerts] == ["taxa_de_erros"]
        return alerts[0]

    alert = await eventually(opened, timeout=10)
    assert alert["evidencia"]["total"] >= 50 and "4xx/5xx" in alert["mensagem"]

    async def mailed():
        assert any("alerta" in m["Subject"] for m in smtp_inbox)

    await eventually(mailed, timeout=15)
    # a quarter of an hour later those calls are out of the window
    await Chamada.filter(integrador_id=integrator.id).update(criado_em=datetime.now(UTC) - timedelta(minutes=16))

    async def closed():
        integracao._last_rate_check.clear()
        await client.get("/v1/saldo", headers=integrator.headers)
        assert (await status(client, integrator))["alertasAbertos"] == []

    await eventually(closed, timeout=10)


async def test_the_contract_is_read_by_the_integrator_and_staff_and_accepted_by_portal_owners(
    client, factory, integrator
):
    from graphql_api.core.context import Context
    from graphql_api.core.errors import ApiError
    from graphql_api.core.principal import ALL_SCOPES, OAUTH_SCOPES, ROLE_SCOPES, CredentialKind, Papel, Principal
    from graphql_api.executor import Operation, run

    ler = Operation("query { contratoVigente { versao titulo } aceiteContrato { versao } }")
    aceitar = Operation("mutation($versao: Int!) { aceitarContrato(versao: $versao) { versao aceitoPor } }")

    def context(kind, scopes, **extra):
        return Context(
            runtime=factory.runtime,
            principal=Principal(kind, Ambiente.TESTE, scopes, integrador_id=integrator.id, **extra),
        )

    key = context(CredentialKind.API_KEY, ALL_SCOPES)
    data = await run(ler, key, {})
    assert data["contratoVigente"]["versao"] >= 1 and data["aceiteContrato"] is None
    versao = data["contratoVigente"]["versao"]
    # an OAuth token reads neither; an API key cannot accept (a person binds the company)
    with pytest.raises(ApiError) as refused:
        await run(ler, context(CredentialKind.OAUTH, OAUTH_SCOPES, conta_id="cta_x"), {})
    assert refused.value.type == "FORBIDDEN"
    with pytest.raises(ApiError) as refused:
        await run(aceitar, key, {"versao": versao})
    assert refused.value.type == "FORBIDDEN"
    # nor a developer; an owner only after typing the password again
    dev = context(CredentialKind.PORTAL, ROLE_SCOPES[Papel.DESENVOLVEDOR], ator_id="usr_x", reautenticado=True)
    with pytest.raises(ApiError) as refused:
        await run(aceitar, dev, {"versao": versao})
    assert refused.value.type == "FORBIDDEN"
    with pytest.raises(ApiError) as refused:
        await run(aceitar, context(CredentialKind.PORTAL, ROLE_SCOPES[Papel.DONO], ator_id="usr_x"), {"versao": versao})
    assert refused.value.type == "REAUTHENTICATION_REQUIRED"
    assert (await run(ler, key, {}))["aceiteContrato"] is None
