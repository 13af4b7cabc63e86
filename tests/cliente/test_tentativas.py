"""What the client repeats and how: 429 and 503 after Retry-After, connection errors after a
back-off with jitter, always with the same Idempotency-Key, and nothing else. Against real local
aiohttp servers that answer from a script (the service itself never sends a 503 on demand)."""

import asyncio
import socket
import time
from dataclasses import dataclass

import httpx
import pytest
from aiohttp import web

from vitrine_client import (
    AsyncVitrine,
    ErroDeConexao,
    ErroDeValidacao,
    ErroInterno,
    LimiteDeConferencias,
    LimiteExcedido,
    ServicoIndisponivel,
    Tentativas,
    Vitrine,
)

AGORA = "2026-11-20T12:00:00Z"
GERACAO = {
    "id": "ger_01m8aaaaaaaaaaaaaaaaaaaaaa",
    "tipo": "galeria",
    "situacao": "na_fila",
    "creditosReservados": 3,
    "creditosCobrados": 0,
    "ambiente": "teste",
    "progresso": {"etapa": "na_fila", "percentual": 0},
    "resultados": {"imagens": [], "videos": []},
    "criadoEm": AGORA,
    "atualizadoEm": AGORA,
}
SALDO = {
    "modeloCobranca": "pre_pago",
    "ambiente": "teste",
    "creditosDisponiveis": 10,
    "creditosReservados": 0,
    "creditosPlano": 0,
    "creditosPacote": 10,
    "atualizadoEm": AGORA,
}


def erro(tipo: str, status: int, **cabecalhos: str) -> tuple[int, dict, dict]:
    corpo = {
        "error": {
            "type": tipo,
            "message": f"mensagem de {tipo}",
            "description": "causa",
            "fields": [],
            "documentation": f"http://vitrine.test/docs/erros#{tipo}",
        }
    }
    return status, {"X-Request-Id": f"req_{tipo.lower()}", **cabecalhos}, corpo


def ok(data: dict, status: int = 200) -> tuple[int, dict, dict]:
    return status, {"X-Request-Id": "req_ok"}, {"data": data}


@dataclass
class Recebido:
    momento: float
    metodo: str
    caminho: str
    cabecalhos: dict[str, str]


class Roteiro:
    """A real HTTP server answering each request with the next scripted answer (the last one
    repeats), recording what arrived and when."""

    def __init__(self, *respostas: tuple[int, dict, dict]) -> None:
        self.respostas = list(respostas)
        self.recebidos: list[Recebido] = []

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_route("*", "/{caminho:.*}", self.responder)
        return app

    async def responder(self, request: web.Request) -> web.Response:
        self.recebidos.append(Recebido(time.monotonic(), request.method, request.path, dict(request.headers)))
        status, cabecalhos, corpo = self.respostas.pop(0) if len(self.respostas) > 1 else self.respostas[0]
        return web.json_response(corpo, status=status, headers=cabecalhos)

    def chaves(self) -> list[str | None]:
        return [r.cabecalhos.get("Idempotency-Key") for r in self.recebidos]


@pytest.fixture
async def roteiro(aiohttp_server):
    async def iniciar(*respostas) -> tuple[Roteiro, str]:
        roteiro = Roteiro(*respostas)
        server = await aiohttp_server(roteiro.app())
        return roteiro, f"http://127.0.0.1:{server.port}"

    return iniciar


async def chamar(sincrono: bool, url: str, chamada, **opcoes):
    """`chamada(cliente)` with the sync client in a thread, or awaited with the async one."""
    if sincrono:

        def rodar():
            with Vitrine("sk_test_roteiro", url=url, **opcoes) as cliente:
                return chamada(cliente)

        return await asyncio.to_thread(rodar)
    async with AsyncVitrine("sk_test_roteiro", url=url, **opcoes) as cliente:
        return await chamada(cliente)


def livre() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("sincrono", [True, False], ids=["sync", "async"])
async def test_429_waits_retry_after_and_repeats_with_the_same_idempotency_key(roteiro, sincrono):
    # given a service that answers 429 with Retry-After: 1, then 201
    servidor, url = await roteiro(erro("TOO_MANY_REQUESTS", 429, **{"Retry-After": "1"}), ok(GERACAO, 201))
    # when a gallery is ordered
    geracao = await chamar(sincrono, url, lambda c: c.galerias.criar("prd_1", 3))
    # then it was sent twice, the second time only after Retry-After, with the same key
    assert geracao.id == GERACAO["id"]
    primeiro, segundo = servidor.recebidos
    assert segundo.momento - primeiro.momento >= 1.0
    chaves = servidor.chaves()
    assert chaves[0] and len(chaves[0]) >= 8 and chaves[0] == chaves[1]
    assert primeiro.cabecalhos["Authorization"] == "Bearer sk_test_roteiro"


@pytest.mark.parametrize("sincrono", [True, False], ids=["sync", "async"])
async def test_503_with_retry_after_is_repeated_once_the_service_is_back(roteiro, sincrono):
    servidor, url = await roteiro(erro("SERVICE_UNAVAILABLE", 503, **{"Retry-After": "1"}), ok(SALDO))
    saldo = await chamar(sincrono, url, lambda c: c.saldo.obter())
    assert saldo.creditosDisponiveis == 10
    assert len(servidor.recebidos) == 2
    assert servidor.recebidos[1].momento - servidor.recebidos[0].momento >= 1.0


async def test_a_new_order_gets_a_new_key_and_an_explicit_key_is_sent_as_given(roteiro):
    servidor, url = await roteiro(ok(GERACAO, 201))
    async with AsyncVitrine("sk_test_roteiro", url=url) as cliente:
        await cliente.galerias.criar("prd_1", 3)
        await cliente.galerias.criar("prd_1", 3)
        await cliente.videos.criar("prd_1", chave_idempotencia="pedido-video-42")
        await cliente.geracoes.obter(GERACAO["id"])
    primeira, segunda, explicita, leitura = servidor.chaves()
    assert primeira != segunda
    assert explicita == "pedido-video-42"
    assert leitura is None  # only POSTs carry one


@pytest.mark.parametrize("sincrono", [True, False], ids=["sync", "async"])
async def test_retries_are_bounded_and_the_last_429_is_raised_with_its_retry_after(roteiro, sincrono):
    servidor, url = await roteiro(erro("TOO_MANY_REQUESTS", 429, **{"Retry-After": "0"}))
    with pytest.raises(LimiteExcedido) as levantado:
        await chamar(sincrono, url, lambda c: c.galerias.criar("prd_1", 3), max_tentativas=2)
    assert len(servidor.recebidos) == 3  # the first attempt and 2 repeats
    assert len(set(servidor.chaves())) == 1
    assert levantado.value.retry_after == 0
    assert levantado.value.request_id == "req_too_many_requests"
    assert levantado.value.documentacao.endswith("/erros#TOO_MANY_REQUESTS")


async def test_a_retry_after_longer_than_the_longest_wait_is_raised_at_once(roteiro):
    # a product's daily check limit: hours away, the caller decides
    servidor, url = await roteiro(erro("CHECK_LIMIT_EXCEEDED", 429, **{"Retry-After": "3600"}))
    comeco = time.monotonic()
    with pytest.raises(LimiteDeConferencias) as levantado:
        await chamar(False, url, lambda c: c.conferencia.obter("prd_1", refazer=True), espera_maxima=30)
    assert time.monotonic() - comeco < 2
    assert len(servidor.recebidos) == 1
    assert levantado.value.retry_after == 3600


@pytest.mark.parametrize(
    ("resposta", "excecao"),
    [(erro("INTERNAL_ERROR", 500), ErroInterno), (erro("VALIDATION_FAILED", 422), ErroDeValidacao)],
    ids=["500", "422"],
)
async def test_nothing_else_is_repeated(roteiro, resposta, excecao):
    servidor, url = await roteiro(resposta)
    with pytest.raises(excecao):
        await chamar(False, url, lambda c: c.galerias.criar("prd_1", 3))
    assert len(servidor.recebidos) == 1


async def test_a_503_past_the_retries_raises_servico_indisponivel(roteiro):
    servidor, url = await roteiro(erro("SERVICE_UNAVAILABLE", 503))  # no Retry-After: back-off
    with pytest.raises(ServicoIndisponivel):
        await chamar(True, url, lambda c: c.saldo.obter(), tentativas=Tentativas(maximo=1, base=0.01, teto=0.01))
    assert len(servidor.recebidos) == 2


@pytest.mark.parametrize("sincrono", [True, False], ids=["sync", "async"])
async def test_connection_refused_is_repeated_then_raised(sincrono):
    # given an address where nothing listens
    url = f"http://127.0.0.1:{livre()}"
    tentativas = []

    def contar(request):
        tentativas.append(request)

    async def acontar(request):
        tentativas.append(request)

    http = (
        httpx.Client(event_hooks={"request": [contar]})
        if sincrono
        else httpx.AsyncClient(event_hooks={"request": [acontar]})
    )
    politica = Tentativas(maximo=3, base=0.05, teto=0.2)
    # when a call is made, then it is tried 1 + 3 times and raised as ErroDeConexao
    with pytest.raises(ErroDeConexao) as levantado:
        await chamar(sincrono, url, lambda c: c.galerias.criar("prd_1", 3), tentativas=politica, http=http)
    assert len(tentativas) == 4
    assert len({t.headers["Idempotency-Key"] for t in tentativas}) == 1
    assert isinstance(levantado.value.__cause__, httpx.ConnectError)


@pytest.mark.parametrize("sincrono", [True, False], ids=["sync", "async"])
async def test_an_answer_that_never_comes_is_raised_as_erro_de_conexao_without_a_repeat(aiohttp_server, sincrono):
    # given a service that takes the order and never answers
    chegadas = []

    async def calado(request: web.Request) -> web.Response:
        chegadas.append(request.headers["Idempotency-Key"])
        await asyncio.sleep(30)
        return web.Response(status=204)

    app = web.Application()
    app.router.add_route("*", "/{caminho:.*}", calado)
    server = await aiohttp_server(app)
    # when an order waits past the client's timeout
    with pytest.raises(ErroDeConexao) as levantado:
        await chamar(sincrono, f"http://127.0.0.1:{server.port}", lambda c: c.galerias.criar("prd_1", 3), timeout=0.5)
    # then it is an error of the client's family (caught by `except ErroVitrine`), and not repeated:
    # the service may be working on it
    assert isinstance(levantado.value.__cause__, httpx.ReadTimeout)
    assert len(chegadas) == 1


async def test_a_service_that_comes_up_during_the_back_off_answers_the_repeat(aiohttp_server):
    # given a port where the service is not up yet
    porta = livre()
    servidor = Roteiro(ok(GERACAO, 201))
    primeira = asyncio.Event()
    loop = asyncio.get_running_loop()

    def ao_tentar(request):
        loop.call_soon_threadsafe(primeira.set)

    async def subir():
        await primeira.wait()
        await aiohttp_server(servidor.app(), port=porta)

    subida = asyncio.create_task(subir())
    # when the client orders with room for a few repeats
    politica = Tentativas(maximo=10, base=0.3, teto=0.3)
    geracao = await chamar(
        True,
        f"http://127.0.0.1:{porta}",
        lambda c: c.galerias.criar("prd_1", 3),
        tentativas=politica,
        http=httpx.Client(event_hooks={"request": [ao_tentar]}),
    )
    await subida
    # then the repeat that found it up was answered, with the key of the first attempt
    assert geracao.id == GERACAO["id"]
    assert len(servidor.recebidos) == 1


def test_the_back_off_has_full_jitter_within_its_ceiling():
    politica = Tentativas(base=0.5, teto=4.0)
    esperas = [politica.espera_apos_conexao(n) for n in range(8) for _ in range(50)]
    assert all(0 <= e <= 4.0 for e in esperas)
    assert max(politica.espera_apos_conexao(0) for _ in range(50)) <= 0.5
    assert len(set(esperas)) > 100  # jittered, not a fixed schedule


async def test_after_a_429_the_next_call_of_the_client_waits_out_retry_after(roteiro):
    # given a 429 raised at once (no repeats), then a service that answers
    servidor, url = await roteiro(erro("TOO_MANY_REQUESTS", 429, **{"Retry-After": "1"}), ok(SALDO))
    async with AsyncVitrine("sk_test_roteiro", url=url, max_tentativas=0) as cliente:
        with pytest.raises(LimiteExcedido):
            await cliente.com_cabecalhos({"X-Vitrine-Teste": "forcar-429"}).saldo.obter()
        # when the same client calls again at once
        await cliente.saldo.obter()
    # then that call left only after Retry-After, and the extra header was on the first only
    primeiro, segundo = servidor.recebidos
    assert segundo.momento - primeiro.momento >= 1.0
    assert primeiro.cabecalhos["X-Vitrine-Teste"] == "forcar-429" and "X-Vitrine-Teste" not in segundo.cabecalhos
