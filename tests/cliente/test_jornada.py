"""The 8 integration steps walked with the official client only, from a new test key to
production access: every step turns ok from the calls the client makes as it is."""

import pytest
from aiohttp import web

from tests.factories import eventually
from tests.fichas import RICA, fotos
from vitrine_client import AsyncVitrine, AvisoInvalido, EtapasPendentes, LimiteExcedido, verificar_aviso


class ReceptorDoCliente:
    """An integrator's notice endpoint written with the client: verificar_aviso or 401."""

    def __init__(self) -> None:
        self.segredo = ""
        self.eventos: list[dict] = []
        self.recusados = 0

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/avisos", self.receber)
        return app

    async def receber(self, request: web.Request) -> web.Response:
        try:
            evento = verificar_aviso(await request.read(), request.headers, self.segredo)
        except AvisoInvalido:
            self.recusados += 1
            return web.Response(status=401)
        self.eventos.append(evento)
        return web.Response(status=204)


async def test_the_eight_steps_with_the_client_only(servico, integrator, photo_site, https_server):
    # one repeat after a 429: the forced one below is not worth four
    cliente = AsyncVitrine(integrator.key, url=servico, max_tentativas=1)

    async def ate_ok(codigo: str) -> None:
        async def conferir() -> None:
            etapas = {e.codigo: e for e in (await cliente.integracao.status()).etapas}
            assert etapas[codigo].situacao == "ok", etapas[codigo]

        await eventually(conferir, timeout=90, interval=0.3)

    # 1. a first call with the test key
    saldo = await cliente.saldo.obter()
    assert saldo.ambiente == "teste"
    await ate_ok("CHAVE_E_PRIMEIRA_CHAMADA")
    # 2. a sub-account
    conta = await cliente.contas.criar("jornada-cliente", "Loja da Jornada")
    await ate_ok("SUBCONTA_CRIADA")
    # 3. a ficha whose check approves it
    produto = await cliente.produtos.salvar(conta.id, "SKU-1", RICA | {"imagens": fotos(photo_site, 1, 2, 3, 4, 5, 6)})
    conferencia = await cliente.conferencia.aguardar(produto.id, intervalo=0.3, tempo_maximo=90)
    galeria = next(r for r in conferencia.resultados if r.tipo == "galeria")
    assert galeria.aprovado and galeria.quantidadesAprovadas
    await ate_ok("PRODUTO_APROVADO")
    # 4 and 7. a gallery ordered twice with the same key: one generation (the repeat is a replay)
    quantidade = galeria.quantidadesAprovadas[0]
    pedida = await cliente.galerias.criar(produto.id, quantidade, chave_idempotencia="jornada-cliente-galeria")
    repetida = await cliente.galerias.criar(produto.id, quantidade, chave_idempotencia="jornada-cliente-galeria")
    assert repetida.id == pedida.id
    pronta = await cliente.geracoes.aguardar(pedida.id, intervalo=0.3, tempo_maximo=120)
    assert pronta.situacao == "concluida" and len(pronta.resultados.imagens) == quantidade
    await ate_ok("GALERIA_TESTE")
    await ate_ok("IDEMPOTENCIA")
    # 5. a video (its Idempotency-Key is the client's own)
    video = await cliente.videos.criar(produto.id)
    assert (await cliente.geracoes.aguardar(video.id, intervalo=0.5, tempo_maximo=120)).situacao == "concluida"
    await ate_ok("VIDEO_TESTE")
    # 6. a notice address whose receiver verifies with verificar_aviso, and the three test deliveries
    receptor = ReceptorDoCliente()
    url = await https_server(receptor.app()) + "/avisos"
    aviso = await cliente.avisos.registrar(url, ["geracao.concluida"])
    receptor.segredo = aviso.segredo
    testes = await cliente.avisos.testar()
    assert len(testes) == 3 and all(t.id.startswith("tst_") for t in testes)
    await ate_ok("AVISOS_ASSINATURA")
    assert len(receptor.eventos) == 1 and receptor.recusados == 2
    # 8. a forced 429: the client waits Retry-After before repeating (forced again, so it gives up
    # with the error), and its next call waits out the last Retry-After by itself
    with pytest.raises(LimiteExcedido) as levantado:
        await cliente.com_cabecalhos({"X-Vitrine-Teste": "forcar-429"}).saldo.obter()
    assert levantado.value.retry_after == 5
    await ate_ok("LIMITE_429")
    # production: released at once, automatically
    status = await cliente.integracao.pedir_producao()
    assert status.etapasConcluidas == 8 and status.producao.situacao == "liberada"
    assert status.producao.liberacao == "automatica"
    await cliente.aclose()


async def test_production_is_refused_with_the_missing_steps(servico, integrator):
    async with AsyncVitrine(integrator.key, url=servico) as cliente:
        await cliente.saldo.obter()
        with pytest.raises(EtapasPendentes) as levantado:
            await cliente.integracao.pedir_producao()
    faltam = {c.codigo for c in levantado.value.campos}
    assert "SUBCONTA_CRIADA" in faltam and "LIMITE_429" in faltam
