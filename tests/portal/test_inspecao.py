"""Inspecting what happened, through the portal's real HTTP: the call log (jump to a request id,
rows that open, response headers, the call as curl), each key's last use, notice deliveries down
to the headers and bodies (real, sample and test ones; an unreachable server told apart), and
clearing the test environment's data."""

import re

from aiohttp import web

from graphql_api.chamada.models import Chamada
from graphql_api.conta.models import Conta
from graphql_api.core.principal import Ambiente
from graphql_api.evento.amostras import CONTA as CONTA_AMOSTRA
from graphql_api.integracao.models import EtapaIntegracao
from portal.chamadas import como_curl
from tests.factories import Integrator, auth, eventually
from tests.portal.conftest import create_key, integrador_id, join
from tests.portal.test_avisos import _register


async def _logged(portal, request_id: str) -> str:
    async def detail():
        return await portal.page(f"/chamadas/{request_id}")

    return await eventually(detail)


# -- call log -----------------------------------------------------------------------------------


async def test_the_jump_box_opens_a_call_or_says_why_not(portal, owner, client):
    key = await create_key(portal)
    response = await client.get("/v1/saldo", headers=auth(key))
    request_id = response.headers["X-Request-Id"]
    await _logged(portal, request_id)
    # a known id opens its call
    found = await portal.get(f"/chamadas?requestId=+{request_id}+")
    assert found.status == 303 and found.headers["Location"] == f"/chamadas/{request_id}"
    # an unknown one stays on the list, with why beside the box
    missing = await portal.get("/chamadas?requestId=req_01jd3k7q9m8x2c4v6b8n0p2r4t")
    page = await missing.text()
    assert missing.status == 404
    assert 'id="erro-ir-request-id"' in page and "Nenhuma chamada req_01jd3k7q9m8x2c4v6b8n0p2r4t" in page
    assert 'aria-invalid="true" aria-describedby="erro-ir-request-id"' in page


async def test_each_row_opens_its_call_and_shows_its_key(portal, owner, client):
    key = await create_key(portal)
    response = await client.get("/v1/saldo", headers=auth(key))
    request_id = response.headers["X-Request-Id"]
    await _logged(portal, request_id)
    page = await portal.page("/chamadas")
    # the row's link is named by its visible text (no aria-label that hides it)
    assert f'<a class="row-link" href="/chamadas/{request_id}">GET /v1/saldo</a>' in page
    assert f'<tr class="opens" id="chamada-{request_id}">' in page
    assert ">Chave</th>" in page and f'<span class="mono">{key[:20]}</span>' in page
    assert 'aria-label="Detalhe da chamada' not in page


async def test_the_detail_shows_response_headers_and_the_call_as_curl_without_the_key(portal, owner, client):
    key = await create_key(portal)
    body = {"codigoExterno": "curl-1", "nome": "Loja d'Água"}
    response = await client.post("/v1/contas", json=body, headers=auth(key, **{"Idempotency-Key": "curl-chave-123"}))
    page = await _logged(portal, response.headers["X-Request-Id"])
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
        assert f"{name}: {response.headers[name]}" in page
    assert "Copiar como curl" in page and 'data-copy="curl"' in page
    curl = re.search(r'<pre id="curl" class="body"[^>]*>(.*?)</pre>', page, re.S).group(1)
    assert key[21:] not in page and key[21:] not in curl
    assert "$VITRINE_CHAVE" in curl and "curl-chave-123" not in curl and "&lt;nova-chave-de-idempotencia&gt;" in curl
    assert "-X POST" in curl and "/v1/contas" in curl


def test_curl_quotes_the_body_for_the_shell_and_names_the_token_of_an_oauth_call():
    chamada = {
        "metodo": "PUT",
        "caminho": "/v1/contas/cta_1/produtos/SKU?x=1",
        "credencial": "oauth",
        "cabecalhosEnviados": {"Authorization": "Bearer oat_test_****", "Content-Type": "application/json"},
        "corpoEnviado": {"nome": "Loja d'Água"},
    }
    curl = como_curl(chamada, "https://api.exemplo.com/v1")
    assert curl.splitlines()[0] == "curl -X PUT 'https://api.exemplo.com/v1/contas/cta_1/produtos/SKU?x=1' \\"
    assert '-H "Authorization: Bearer $VITRINE_TOKEN"' in curl and "oat_test_****" not in curl
    assert '--data-raw \'{"nome":"Loja d\'"\'"\'Água"}\'' in curl


# -- keys ---------------------------------------------------------------------------------------


async def test_a_key_shows_its_last_use_and_links_to_its_calls(portal, owner, client):
    key = await create_key(portal)
    identificador = key[:20]
    assert "nunca usada" in await portal.page("/chaves")
    await client.get("/v1/saldo", headers=auth(key))

    async def used():
        page = await portal.page("/chaves")
        assert "nunca usada" not in page
        return page

    page = await eventually(used)
    assert f'href="/chamadas?chave={identificador}"' in page
    listing = await portal.page(f"/chamadas?chave={identificador}")
    assert 'class="row-link"' in listing and "GET /v1/saldo" in listing


# -- notices ------------------------------------------------------------------------------------


async def test_a_sample_event_goes_signed_with_its_real_shape_and_opens_to_what_was_sent(portal, owner, receptor):
    aviso_id, segredo = await _register(portal, receptor.url)
    receptor.segredos.append(segredo)
    detail = await portal.page(f"/avisos/{aviso_id}")
    assert "Enviar evento de teste" in detail and 'name="tipo"' in detail
    # when a sample of an event the address did not even subscribe to is sent
    response = await portal.submit(
        f"/avisos/{aviso_id}/amostra", {"tipo": "produto.conferido"}, token_from=f"/avisos/{aviso_id}"
    )
    assert response.status == 303
    location = response.headers["Location"]
    assert re.fullmatch(rf"/avisos/{aviso_id}/entregas/ent_\w+\?aviso=amostra_enviada", location)

    async def delivered():
        page = await portal.page(location)
        assert "HTTP 204" in page and "hx-trigger" not in page
        return page

    page = await eventually(delivered, timeout=10)
    # then the receiver verified it, and it has the shape of a real produto.conferido
    recebido = receptor.recebidos[-1]
    assert recebido.valido is True and recebido.webhook_id == location.split("/")[-1].split("?")[0]
    evento = recebido.evento
    assert evento["tipo"] == "produto.conferido" and evento["contaId"] == CONTA_AMOSTRA
    assert set(evento["data"]) == {"produto", "conferencia"} and evento["id"].startswith("evt_")
    # and the delivery opens to the exact headers sent and the body
    assert "evento de teste" in page
    assert f"webhook-id: {recebido.webhook_id}" in page and "User-Agent: Vitrine/1.0" in page
    assert f"webhook-signature: {recebido.cabecalhos['webhook-signature']}" in page
    assert "&#34;tipo&#34;: &#34;produto.conferido&#34;" in page or '"tipo": "produto.conferido"' in page
    # an unknown event is refused beside the field
    refused = await portal.submit(
        f"/avisos/{aviso_id}/amostra", {"tipo": "nada.disso"}, token_from=f"/avisos/{aviso_id}"
    )
    assert refused.status == 422 and 'id="erro-tipo"' in await refused.text()


async def test_deliveries_filter_by_event_and_result_and_show_the_answer(portal, owner, receptor, factory):
    aviso_id, segredo = await _register(portal, receptor.url, ["geracao.concluida", "produto.conferido"])
    receptor.segredos.append(segredo)
    integrator = Integrator(await integrador_id(owner), "")
    receptor.respostas = [(503, {"Retry-After": "1", "X-Servidor": "integrador"})]
    await factory.evento(integrator, "geracao.concluida")
    await factory.evento(integrator, "produto.conferido")

    async def both_done():
        page = await portal.page(f"/avisos/{aviso_id}")
        assert page.count('<span class="badge ok">entregue</span>') == 2
        return page

    await eventually(both_done, timeout=15)
    only_products = await portal.page(f"/avisos/{aviso_id}?tipo=produto.conferido")
    assert "<code>produto.conferido</code></a>" in only_products
    assert "<code>geracao.concluida</code></a>" not in only_products
    assert '<option value="produto.conferido" selected>' in only_products
    assert "Nenhuma entrega com estes filtros" in await portal.page(f"/avisos/{aviso_id}?situacao=falhou")
    # the delivery that met the 503 (either event's: both go out at once) opens to both attempts:
    # the 503 with its headers, then the 204
    listing = await portal.page(f"/avisos/{aviso_id}?situacao=entregue")
    pages = {
        entrega_id: await portal.page(f"/avisos/{aviso_id}/entregas/{entrega_id}")
        for entrega_id in set(re.findall(rf'href="/avisos/{aviso_id}/entregas/(ent_\w+)"', listing))
    }
    assert len(pages) == 2
    retried = [entrega_id for entrega_id, page in pages.items() if "Tentativa 2" in page]
    assert len(retried) == 1
    entrega_id = retried[0]
    page = pages[entrega_id]
    assert "Tentativa 1" in page
    assert "HTTP 503" in page and "X-Servidor: integrador" in page and "resposta roteirizada" in page
    assert "HTTP 204" in page and page.count(f"webhook-id: {entrega_id}") == 2
    # an unknown filter value from an old link shows everything
    old = await portal.get(f"/avisos/{aviso_id}?tipo=nada.disso")
    assert old.status == 303 and old.headers["Location"] == f"/avisos/{aviso_id}"


async def test_an_unreachable_server_is_reported_as_not_reached_never_as_a_wrong_answer(portal, owner):
    # given an address on a port where nothing listens
    aviso_id, _ = await _register(portal, "https://localhost:1/avisos")
    await portal.submit(f"/avisos/{aviso_id}/testar", {}, token_from=f"/avisos/{aviso_id}")

    async def concluded():
        fragment = await portal.page(f"/avisos/{aviso_id}/testes")
        assert "concluída em" in fragment
        return fragment

    fragment = await eventually(concluded, timeout=15)
    assert "Não alcançamos seu servidor" in fragment and "recusou a conexão" in fragment
    assert fragment.count('<span class="badge bad">não alcançado</span>') >= 3
    assert "Algum teste não teve a resposta esperada" not in fragment
    integracao = await portal.page("/integracao")
    assert "Não alcançamos seu servidor: o servidor recusou a conexão" in integracao
    assert "esperado 2XX" not in integracao


async def test_tls_and_dns_failures_are_told_apart(portal, owner, aiohttp_server):
    # a server that speaks plain HTTP where https is expected: the TLS handshake fails
    plain = await aiohttp_server(web.Application())
    for url, motivo in (
        (f"https://localhost:{plain.port}/avisos", "a conexão segura (TLS) falhou"),
        ("https://nao-existe.invalid/avisos", "o nome do servidor não foi encontrado no DNS"),
    ):
        aviso_id, _ = await _register(portal, url)
        response = await portal.submit(
            f"/avisos/{aviso_id}/amostra", {"tipo": "geracao.concluida"}, token_from=f"/avisos/{aviso_id}"
        )
        location = response.headers["Location"]

        async def failed(location=location):
            page = await portal.page(location)
            assert "Tentativa 1" in page and "hx-trigger" not in page
            return page

        page = await eventually(failed, timeout=15)
        assert f"Não alcançamos seu servidor: {motivo}" in page, url
        assert "não chegou a receber" in page and "HTTP " not in page
        # a sample is sent once: no retry is scheduled
        assert "Próxima tentativa" not in page and '<span class="badge bad">falhou</span>' in page


# -- clearing the test data ---------------------------------------------------------------------


async def _step(integrador: str, codigo: str) -> str | None:
    row = await EtapaIntegracao.get_or_none(integrador_id=integrador, codigo=codigo)
    return row.situacao if row else None


async def test_clearing_test_data_starts_the_integration_over_and_leaves_production(
    portal, owner, client, factory, receptor
):
    integrador = await integrador_id(owner)
    key = await create_key(portal)
    # given test data, a passing notice test and a stray POST without Idempotency-Key
    conta = (
        await (await client.post("/v1/contas", json={"codigoExterno": "c1", "nome": "n"}, headers=auth(key))).json()
    )["data"]
    stray = await client.post("/v1/galerias", json={"produtoId": "prd_x", "quantidadeImagens": 3}, headers=auth(key))
    assert stray.status == 400
    aviso_id, segredo = await _register(portal, receptor.url)
    receptor.segredos.append(segredo)
    await portal.submit(f"/avisos/{aviso_id}/testar", {}, token_from=f"/avisos/{aviso_id}")

    async def judged():
        assert await _step(integrador, "IDEMPOTENCIA") == "falhou"
        assert await _step(integrador, "AVISOS_ASSINATURA") == "ok"
        assert await _step(integrador, "CHAVE_E_PRIMEIRA_CHAMADA") == "ok"

    await eventually(judged, timeout=15)
    # and production data
    integrator = Integrator(integrador, key)
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    producao = await client.post("/v1/contas", json={"codigoExterno": "p1", "nome": "n"}, headers=auth(live))
    assert producao.status == 201
    await eventually(lambda: _has_call(producao.headers["X-Request-Id"]))

    # when the owner asks, the password is asked first
    assert "Limpar dados de teste" in await portal.page("/integracao")
    confirm = await portal.page("/integracao/limpar")
    assert "Produção não é tocada" in confirm
    asked = await portal.submit("/integracao/limpar", {})
    assert asked.status == 303 and asked.headers["Location"].startswith("/reautenticar")
    assert await Conta.filter(id=conta["id"]).exists()
    await portal.reauthenticate(owner, proximo="/integracao/limpar")
    done = await portal.submit("/integracao/limpar", {})
    page = await done.text()
    assert done.status == 200 and "Dados de teste apagados" in page

    # then the test environment is empty and production is as it was
    assert not await Conta.filter(integrador_id=integrador, ambiente="teste").exists()
    assert await Conta.filter(integrador_id=integrador, ambiente="producao").count() == 1
    assert not await Chamada.filter(integrador_id=integrador, ambiente="teste").exists()
    assert await Chamada.filter(id=producao.headers["X-Request-Id"]).exists()
    # the steps are judged again from what remains: the notice test still counts, the stray
    # POST no longer holds IDEMPOTENCIA failed, and a new first call is judged again
    assert await _step(integrador, "IDEMPOTENCIA") is None
    assert await _step(integrador, "AVISOS_ASSINATURA") == "ok"
    integracao = await portal.page("/integracao")
    assert 'id="etapa-IDEMPOTENCIA" class="step pendente"' in integracao
    assert 'id="etapa-AVISOS_ASSINATURA" class="step ok"' in integracao
    assert 'id="etapa-CHAVE_E_PRIMEIRA_CHAMADA" class="step pendente"' in integracao
    await client.get("/v1/saldo", headers=auth(key))

    async def first_call_again():
        assert await _step(integrador, "CHAVE_E_PRIMEIRA_CHAMADA") == "ok"

    await eventually(first_call_again)
    # the notice address and the keys stay
    assert receptor.url in await portal.page("/avisos")
    assert (await client.get("/v1/saldo", headers=auth(key))).status == 200


async def _has_call(request_id: str) -> None:
    assert await Chamada.filter(id=request_id).exists()


async def test_a_finance_person_cannot_clear_test_data(portal, owner, new_portal, client):
    key = await create_key(portal)
    await client.post("/v1/contas", json={"codigoExterno": "fica", "nome": "n"}, headers=auth(key))
    browser, pessoa = await join(portal, new_portal, "Fernanda", "financeiro")
    await browser.reauthenticate(pessoa, proximo="/integracao")
    response = await browser.submit("/integracao/limpar", {}, token_from="/integracao")
    assert response.status == 403
    assert await Conta.filter(integrador_id=await integrador_id(owner), ambiente="teste").count() == 1
