"""Listening sessions (`vitrine-cli listen`) and sample events (`vitrine-cli trigger`), from the
integrator's side: the real command in its own process, the service over HTTP, and a local
receiver (a real aiohttp server) that verifies each forwarded notice with `standardwebhooks`."""

from __future__ import annotations

import asyncio
import json
import signal
import sys

from aiohttp import web

from graphql_api.aviso.escutas import MAX_ESCUTAS, VIDA
from graphql_api.core.principal import Ambiente
from graphql_api.evento.amostras import AMOSTRAS
from graphql_api.evento.catalog import EVENT_TYPES
from rest_v1.handlers.escutas import HEARTBEAT_SECONDS
from tests.api.test_auth import assert_error as assert_envelope
from tests.factories import eventually


async def abrir(client, integrator, **body) -> dict:
    response = await client.post("/v1/avisos/escutas", json=body, headers=integrator.headers)
    assert response.status == 201, await response.text()
    return (await response.json())["data"]


async def escuta(client, integrator, escuta_id: str) -> dict:
    response = await client.get(f"/v1/avisos/escutas/{escuta_id}", headers=integrator.headers)
    assert response.status == 200, await response.text()
    return (await response.json())["data"]


async def entregas(client, integrator, escuta_id: str) -> list[dict]:
    response = await client.get(f"/v1/avisos/escutas/{escuta_id}/entregas", headers=integrator.headers)
    assert response.status == 200, await response.text()
    return (await response.json())["data"]


async def disparar(client, integrator, tipo: str) -> dict:
    response = await client.post("/v1/avisos/disparos", json={"tipo": tipo}, headers=integrator.headers)
    assert response.status == 202, await response.text()
    return (await response.json())["data"]


async def assert_error(response, status: int, error_type: str) -> None:
    assert response.status == status, await response.text()
    assert_envelope(await response.json(), error_type)


async def escutando(vitrine_cli, integrator, receptor, *args: str):
    """`vitrine-cli listen` forwarding to the receiver, ready; (the run, its session id)."""
    execucao = await vitrine_cli.iniciar("listen", "--forward-to", receptor.url, *args, chave=integrator.key)
    segredo = (await execucao.linha("whsec_")).split()[-1]
    receptor.segredos.append(segredo)
    escuta_id = (await execucao.linha("Sessão de escuta")).split()[3]
    await execucao.linha("Encaminhando")
    return execucao, escuta_id


# ---------------------------------------------------------------- listen


async def test_listen_forwards_signed_notices_records_the_answer_and_ends_on_ctrl_c(
    client, integrator, receptor_local, vitrine_cli
):
    # given the command listening, forwarding to a local receiver
    execucao, escuta_id = await escutando(vitrine_cli, integrator, receptor_local)
    assert escuta_id.startswith("esc_")
    # when an event happens in the test environment
    evento = await disparar(client, integrator, "geracao.concluida")
    # then the receiver gets it, signed with the session's secret as real deliveries are
    await eventually(lambda: _chegou(receptor_local, 1), timeout=15)
    recebido = receptor_local.recebidos[0]
    assert recebido.valido is True
    assert recebido.webhook_id.startswith("ent_")
    assert recebido.cabecalhos["x-vitrine-signature"] == recebido.cabecalhos["webhook-signature"]
    assert recebido.evento == {
        "id": evento["id"],
        "tipo": "geracao.concluida",
        "criadoEm": evento["criadoEm"],
        "contaId": evento["contaId"],
        "data": AMOSTRAS["geracao.concluida"].dados.model_dump(mode="json"),
    }
    # and the command prints the event, the local answer and its time
    linha = await execucao.linha(evento["id"])
    assert "geracao.concluida" in linha and "204" in linha and " ms)" in linha

    # and the local answer is the delivery's result, read through the API
    async def registrada() -> dict:
        (entrega,) = await entregas(client, integrator, escuta_id)
        assert entrega["situacao"] == "entregue", entrega
        return entrega

    entrega = await eventually(registrada, timeout=10)
    assert entrega["id"] == recebido.webhook_id and entrega["eventoId"] == evento["id"]
    assert entrega["status"] == 204 and entrega["duracaoMs"] >= 0 and entrega["respondidaEm"]
    assert (await escuta(client, integrator, escuta_id))["situacao"] == "conectada"

    # and the report is a call of the call log, like every call
    async def no_registro() -> None:
        response = await client.get(
            "/v1/integracao/chamadas",
            params={"endpoint": "/avisos/escutas/{escutaId}/entregas/{entregaId}/resultado"},
            headers=integrator.headers,
        )
        assert [c["status"] for c in (await response.json())["data"]] == [200]

    await eventually(no_registro, timeout=10)

    # when Ctrl-C stops the command
    assert await execucao.interromper() == 0
    # then the service frees the session
    sessao = await escuta(client, integrator, escuta_id)
    assert sessao["situacao"] == "encerrada" and sessao["encerradaEm"]
    assert "encerrada" in execucao.linhas[-1]


async def test_ctrl_c_while_a_notice_is_forwarded_reports_its_result_then_ends(
    client, integrator, receptor_local, vitrine_cli
):
    # given the command listening, and a local server slow to answer
    execucao, escuta_id = await escutando(vitrine_cli, integrator, receptor_local)
    receptor_local.espera = 1.5
    evento = await disparar(client, integrator, "geracao.concluida")
    # when Ctrl-C comes while the notice is at the local server
    await asyncio.wait_for(receptor_local.chegada.wait(), 15)
    assert await execucao.interromper() == 0
    # then the notice in flight finished first: printed, and its result reported to the service
    assert any(evento["id"] in linha and "204" in linha for linha in execucao.linhas), execucao.linhas
    (entrega,) = await entregas(client, integrator, escuta_id)
    assert entrega["situacao"] == "entregue" and entrega["status"] == 204
    # and the session is freed
    assert (await escuta(client, integrator, escuta_id))["situacao"] == "encerrada"


async def test_a_second_ctrl_c_ends_the_command_at_once(client, integrator, receptor_local, vitrine_cli):
    # given the command forwarding a notice to a local server that takes its full 10 s
    execucao, _ = await escutando(vitrine_cli, integrator, receptor_local)
    receptor_local.espera = 30
    await disparar(client, integrator, "geracao.concluida")
    await asyncio.wait_for(receptor_local.chegada.wait(), 15)
    # when Ctrl-C comes twice
    execucao.process.send_signal(signal.SIGINT)
    await asyncio.sleep(0.3)
    # then the second ends it at once, as the signal does
    assert await execucao.interromper(timeout=3) == -signal.SIGINT


async def _chegou(receptor, quantos: int) -> None:
    assert len(receptor.recebidos) >= quantos, receptor.recebidos


async def test_the_local_answer_is_recorded_when_it_fails_or_never_comes(
    client, integrator, receptor_local, vitrine_cli, unused_tcp_port
):
    # given a local receiver answering 500
    receptor_local.respostas.append((500, {}))
    execucao, escuta_id = await escutando(vitrine_cli, integrator, receptor_local)
    await disparar(client, integrator, "geracao.falhou")
    await execucao.linha("geracao.falhou")

    async def falhou() -> dict:
        (entrega,) = await entregas(client, integrator, escuta_id)
        assert entrega["situacao"] == "falhou", entrega
        return entrega

    entrega = await eventually(falhou, timeout=10)
    assert entrega["status"] == 500 and entrega["resposta"] == "resposta roteirizada"
    assert await execucao.interromper() == 0

    # given a command forwarding to a port where nothing listens
    execucao = await vitrine_cli.iniciar(
        "listen", "--forward-to", f"http://127.0.0.1:{unused_tcp_port}/avisos", chave=integrator.key
    )
    escuta_id = (await execucao.linha("Sessão de escuta")).split()[3]
    await execucao.linha("Encaminhando")
    await disparar(client, integrator, "produto.conferido")
    await execucao.linha("conexao_falhou")
    entrega = await eventually(falhou, timeout=10)
    assert entrega["status"] is None and entrega["erro"].startswith("conexao_falhou")
    assert await execucao.interromper() == 0


async def test_an_endless_or_trickling_local_answer_is_cut_as_a_registered_address_would(
    client, integrator, aiohttp_server, vitrine_cli
):
    # given a local receiver whose answer never ends (up to 256 MB, so a command reading it all
    # still ends): fast, then one byte a second
    escritos = []

    async def sem_fim(request: web.Request) -> web.StreamResponse:
        await request.read()
        response = web.StreamResponse(status=200)
        await response.prepare(request)
        try:
            for _ in range(4096):
                if request.path == "/rapido":
                    await response.write(b"a" * 65536)
                    escritos.append(65536)
                else:
                    await response.write(b"a")
                    await asyncio.sleep(1)
        except ConnectionError:  # the command stopped reading
            pass
        return response

    app = web.Application()
    app.router.add_post("/{modo}", sem_fim)
    servidor = await aiohttp_server(app)

    async def encaminhado(caminho: str, visto: str, timeout: float) -> tuple[object, dict]:
        """A notice forwarded to `caminho`, once the command printed `visto`: (the run, the delivery)."""
        execucao = await vitrine_cli.iniciar(
            "listen", "--forward-to", str(servidor.make_url(caminho)), chave=integrator.key
        )
        escuta_id = (await execucao.linha("Sessão de escuta")).split()[3]
        await execucao.linha("Encaminhando")
        await disparar(client, integrator, "geracao.concluida")
        await execucao.linha(visto, timeout=timeout)

        async def resultado() -> dict:
            (entrega,) = await entregas(client, integrator, escuta_id)
            assert entrega["situacao"] == "falhou" or entrega["status"] == 200, entrega
            return entrega

        return execucao, await eventually(resultado, timeout=10)

    # when a notice is forwarded to the endless answer, then the command keeps the start of the
    # answer and leaves the rest unread (it read it all before)
    execucao, entrega = await encaminhado("/rapido", "-> 200", timeout=10)
    assert entrega["resposta"] == "a" * 1024
    assert sum(escritos) < 64 * 1024 * 1024
    assert await execucao.interromper() == 0

    # when a notice is forwarded to the trickling answer, then after 10 s it is an answer that
    # never came, as for a registered address (it waited for ever)
    execucao, entrega = await encaminhado("/lento", "tempo_esgotado", timeout=20)
    assert entrega["status"] is None and entrega["erro"] == "tempo_esgotado"
    assert 10_000 <= entrega["duracaoMs"] < 13_000
    assert await execucao.interromper() == 0


async def test_a_malformed_stream_or_forward_address_is_an_error_message_not_a_traceback(
    integrator, aiohttp_server, vitrine_cli
):
    # given a "service" (a proxy in between, say) whose stream carries a notice out of shape
    avisos = [b"{nao json", b'{"id": "ent_1"}', b"[1, 2]"]
    encerradas = []

    async def abrir_escuta(request: web.Request) -> web.Response:
        return web.json_response(
            {"data": {"id": "esc_x", "segredo": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}}, status=201
        )

    async def fluxo(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(b"event: sessao\ndata: {}\n\nevent: aviso\nid: ent_1\ndata: " + avisos.pop(0) + b"\n\n")
        await asyncio.sleep(30)
        return response

    async def encerrar(request: web.Request) -> web.Response:
        encerradas.append(request.match_info["id"])
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/v1/avisos/escutas", abrir_escuta)
    app.router.add_get("/v1/avisos/escutas/{id}/eventos", fluxo)
    app.router.add_delete("/v1/avisos/escutas/{id}", encerrar)
    servico = await aiohttp_server(app)
    for _ in range(3):
        # when the command reads it
        code, _, erro = await vitrine_cli.executar(
            "listen",
            "--forward-to",
            "http://127.0.0.1:9/avisos",
            chave=integrator.key,
            url=str(servico.make_url("/v1")),
        )
        # then it says so and ends the session
        assert code == 1
        assert "Traceback" not in erro and "aviso fora do formato" in erro, erro
    assert encerradas == ["esc_x"] * 3

    # when the local address is not one
    for destino in ("http://[::1/avisos", "localhost:3000/avisos"):
        code, saida, erro = await vitrine_cli.executar("listen", "--forward-to", destino, chave=integrator.key)
        # then the command says so before opening a session
        assert code == 1
        assert "Traceback" not in erro and "--forward-to" in erro, erro
        assert "Sessão de escuta" not in saida


async def test_eventos_chooses_the_types_forwarded(client, integrator, receptor_local, vitrine_cli):
    execucao, _ = await escutando(vitrine_cli, integrator, receptor_local, "--eventos", "geracao.falhou,cota.alerta")
    await disparar(client, integrator, "geracao.concluida")
    alerta = await disparar(client, integrator, "cota.alerta")
    await execucao.linha(alerta["id"])
    assert [r.evento["tipo"] for r in receptor_local.recebidos] == ["cota.alerta"]
    assert await execucao.interromper() == 0


async def test_trigger_of_each_event_type_reaches_the_listener(client, integrator, receptor_local, vitrine_cli):
    # given the command listening to every event
    execucao, _ = await escutando(vitrine_cli, integrator, receptor_local)
    # when `vitrine-cli trigger` emits each event type
    for tipo in EVENT_TYPES:
        code, saida, erro = await vitrine_cli.executar("trigger", tipo, chave=integrator.key)
        assert code == 0, erro
        assert tipo in saida and "evt_" in saida
    # then each reaches the local receiver, signed, with its sample's shape
    await eventually(lambda: _chegou(receptor_local, len(EVENT_TYPES)), timeout=20)
    assert all(r.valido for r in receptor_local.recebidos)
    assert [r.evento["tipo"] for r in receptor_local.recebidos] == list(EVENT_TYPES)
    for recebido in receptor_local.recebidos:
        amostra = AMOSTRAS[recebido.evento["tipo"]]
        assert recebido.evento["data"] == amostra.dados.model_dump(mode="json")
        assert recebido.evento["contaId"] == amostra.conta_id
    assert await execucao.interromper() == 0


async def test_vitrine_url_is_the_services_address_as_for_the_python_client(client, integrator, vitrine_cli):
    # given VITRINE_URL as docs/cliente-python.md sets it for the client: the service's address, no /v1
    servico = str(client.make_url("")).rstrip("/")
    for url in (servico, servico + "/", servico + "/v1/"):
        # when the command runs with it
        code, saida, erro = await vitrine_cli.executar("trigger", "geracao.concluida", chave=integrator.key, url=url)
        # then it reaches the API all the same
        assert code == 0, (url, erro)
        assert "evt_" in saida


async def test_trigger_of_an_unknown_type_says_which_exist(integrator, vitrine_cli):
    code, _, erro = await vitrine_cli.executar("trigger", "geracao.terminou", chave=integrator.key)
    assert code == 1
    assert "VALIDATION_FAILED" in erro and "geracao.concluida" in erro


async def test_sample_events_reach_registered_test_addresses_but_prove_no_integration_step(
    client, integrator, receptor
):
    response = await client.put(
        "/v1/avisos", json={"url": receptor.url, "eventos": ["geracao.concluida"]}, headers=integrator.headers
    )
    receptor.segredos.append((await response.json())["data"]["segredo"])
    evento = await disparar(client, integrator, "geracao.concluida")
    await eventually(lambda: _chegou(receptor, 1), timeout=10)
    assert receptor.recebidos[0].valido and receptor.recebidos[0].evento["id"] == evento["id"]
    status = await (await client.get("/v1/integracao/status", headers=integrator.headers)).json()
    (galeria,) = [e for e in status["data"]["etapas"] if e["codigo"] == "GALERIA_TESTE"]
    assert galeria["situacao"] == "pendente"


# ---------------------------------------------------------------- the rules of a session


async def test_a_production_key_is_refused(client, factory, integrator, vitrine_cli):
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    headers = {"Authorization": f"Bearer {live}"}
    for path, body in (("/v1/avisos/escutas", {}), ("/v1/avisos/disparos", {"tipo": "geracao.concluida"})):
        response = await client.post(path, json=body, headers=headers)
        await assert_error(response, 403, "TEST_ENVIRONMENT_ONLY")
    code, _, erro = await vitrine_cli.executar("listen", "--forward-to", "http://127.0.0.1:9/avisos", chave=live)
    assert code == 1
    assert "TEST_ENVIRONMENT_ONLY" in erro and "sk_live_" in erro and "/docs/erros#TEST_ENVIRONMENT_ONLY" in erro


async def test_at_most_three_open_sessions_and_closing_one_frees_its_place(client, integrator, relogio):
    abertas = [await abrir(client, integrator) for _ in range(MAX_ESCUTAS)]
    assert all(a["segredo"].startswith("whsec_") and a["situacao"] == "aberta" for a in abertas)
    response = await client.post("/v1/avisos/escutas", json={}, headers=integrator.headers)
    await assert_error(response, 409, "NOTICE_LISTEN_LIMIT_REACHED")
    # DELETE frees a place at once
    response = await client.delete(f"/v1/avisos/escutas/{abertas[0]['id']}", headers=integrator.headers)
    assert response.status == 204
    await abrir(client, integrator)
    # a session never connected (its command died) stops counting after VIDA
    relogio.avancar(seconds=VIDA.total_seconds() + 1)
    assert (await escuta(client, integrator, abertas[1]["id"]))["situacao"] == "encerrada"
    for _ in range(MAX_ESCUTAS):
        await abrir(client, integrator)


async def test_concurrent_openings_respect_the_limit(client, integrator):
    responses = await asyncio.gather(
        *(client.post("/v1/avisos/escutas", json={}, headers=integrator.headers) for _ in range(MAX_ESCUTAS + 2))
    )
    assert sorted(r.status for r in responses) == [201] * MAX_ESCUTAS + [409, 409]


async def test_closing_the_stream_frees_the_session_and_a_session_takes_one_stream(client, integrator):
    aberta = await abrir(client, integrator, eventos=["geracao.concluida"])
    url = f"/v1/avisos/escutas/{aberta['id']}/eventos"
    fluxo = await client.get(url, headers=integrator.headers)
    assert fluxo.status == 200 and fluxo.headers["Content-Type"].startswith("text/event-stream")
    assert fluxo.headers["X-Request-Id"].startswith("req_")
    assert await fluxo.content.readline() == b"event: sessao\n"
    dados = json.loads((await fluxo.content.readline()).removeprefix(b"data: "))
    assert (
        dados["id"] == aberta["id"] and dados["situacao"] == "conectada" and dados["eventos"] == ["geracao.concluida"]
    )
    # a second stream of the same session is refused
    await assert_error(await client.get(url, headers=integrator.headers), 409, "NOTICE_LISTEN_CLOSED")
    # when the client goes away without a word
    fluxo.close()

    async def encerrada() -> None:
        assert (await escuta(client, integrator, aberta["id"]))["situacao"] == "encerrada"

    await eventually(encerrada, timeout=10)


async def test_sessions_are_the_integrators_own(client, factory, integrator):
    aberta = await abrir(client, integrator)
    outro = await factory.integrator()
    response = await client.get(f"/v1/avisos/escutas/{aberta['id']}", headers=outro.headers)
    await assert_error(response, 404, "NOT_FOUND")
    response = await client.get(f"/v1/avisos/escutas/{aberta['id']}/eventos", headers=outro.headers)
    await assert_error(response, 404, "NOT_FOUND")


async def test_an_event_of_another_process_wakes_the_stream_at_once(
    client, integrator, receptor_local, vitrine_cli, worker_process
):
    """PostgreSQL + Redis: the event's process publishes on the invalidation bus, and the stream of
    this web process forwards it well before its next heartbeat would have read it."""
    from tests.processes import ROOT

    execucao, _ = await escutando(vitrine_cli, integrator, receptor_local)
    await asyncio.sleep(1)  # the stream is now waiting for deliveries, not reading them
    outro = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.outro_processo",
        integrator.id,
        "geracao.concluida",
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    saida, erro = await outro.communicate()
    assert outro.returncode == 0, erro.decode()
    registrado = asyncio.get_running_loop().time()
    evento_id = saida.decode().strip()
    await execucao.linha(evento_id, timeout=HEARTBEAT_SECONDS)
    assert asyncio.get_running_loop().time() - registrado < HEARTBEAT_SECONDS / 3
    assert receptor_local.recebidos[0].valido and receptor_local.recebidos[0].evento["id"] == evento_id
    assert await execucao.interromper() == 0


async def test_a_sample_event_reaches_registered_addresses_as_a_sample_delivery(client, integrator, receptor):
    from tests.api.test_avisos import entregas as entregas_do_endereco
    from tests.api.test_avisos import registrar

    aviso = await registrar(client, integrator, receptor)
    evento = await disparar(client, integrator, "geracao.concluida")

    async def entregue() -> dict:
        (entrega,) = await entregas_do_endereco(client, integrator, aviso["id"])
        assert entrega["situacao"] == "entregue", entrega
        return entrega

    entrega = await eventually(entregue)
    # like the portal's "Enviar evento de teste": a sample, whose failures would not count against
    # the address (one attempt, no failing-since, no deactivation)
    assert entrega["eventoId"] == evento["id"] and entrega["amostra"] is True
