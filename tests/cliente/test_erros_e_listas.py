"""The client against the running service: typed errors with their request id and link, lists
across pages, and safe repeats with an Idempotency-Key."""

import asyncio

import httpx
import pytest

from tests.factories import eventually
from tests.fichas import RICA
from vitrine_client import (
    AsyncVitrine,
    ContaJaExiste,
    CreditosInsuficientes,
    ErroDeValidacao,
    ErroVitrine,
    EtapasPendentes,
    IdempotencyKeyReutilizada,
    NaoAutorizado,
    NaoEncontrado,
    TipoDeMidiaNaoAprovado,
    Vitrine,
)
from vitrine_client.modelos import Conta


def _bem_formado(erro: ErroVitrine, tipo: str, status: int) -> None:
    assert erro.tipo_recebido == tipo and erro.status == status
    assert erro.request_id and erro.request_id.startswith("req_")
    assert erro.documentacao and erro.documentacao.endswith(f"/erros#{tipo}")
    assert erro.mensagem and erro.descricao


async def test_errors_are_raised_as_the_exception_of_their_type(servico, factory, integrator):
    async with AsyncVitrine(integrator.key, url=servico) as cliente:
        # a wrong key
        async with AsyncVitrine("sk_test_naoexiste_" + "x" * 40, url=servico) as intruso:
            with pytest.raises(NaoAutorizado) as levantado:
                await intruso.saldo.obter()
        _bem_formado(levantado.value, "UNAUTHORIZED", 401)
        # an account that is not there
        with pytest.raises(NaoEncontrado) as levantado:
            await cliente.contas.obter("cta_" + "0" * 26)
        _bem_formado(levantado.value, "NOT_FOUND", 404)
        # a ficha the service refuses: the field at fault
        conta = await cliente.contas.criar("erros-1", "Loja Erros")
        with pytest.raises(ErroDeValidacao) as levantado:
            await cliente.produtos.salvar(conta.id, "SKU-1", {"nome": "", "imagens": [{"url": "ftp://x", "ordem": 1}]})
        _bem_formado(levantado.value, "VALIDATION_FAILED", 422)
        assert {"nome", "imagens[0].url"} <= {c.campo for c in levantado.value.campos}
        # a repeated codigoExterno: the existing account's id
        with pytest.raises(ContaJaExiste) as levantado:
            await cliente.contas.criar("erros-1", "Outra")
        assert levantado.value.existente == conta.id
        # production with steps missing: one field per step
        with pytest.raises(EtapasPendentes) as levantado:
            await cliente.integracao.pedir_producao()
        assert levantado.value.campos and all(c.campo == "etapas" for c in levantado.value.campos)


async def test_an_idempotency_key_repeats_safely_and_refuses_another_body(servico, integrator):
    async with AsyncVitrine(integrator.key, url=servico) as cliente:
        primeira = await cliente.contas.criar("idem-1", "Loja", chave_idempotencia="conta-idem-0001")
        repetida = await cliente.contas.criar("idem-1", "Loja", chave_idempotencia="conta-idem-0001")
        assert repetida.id == primeira.id  # the stored answer, nothing created again
        with pytest.raises(IdempotencyKeyReutilizada) as levantado:
            await cliente.contas.criar("idem-2", "Outra", chave_idempotencia="conta-idem-0001")
        _bem_formado(levantado.value, "IDEMPOTENCY_KEY_REUSED", 409)


async def test_credit_and_check_errors_on_orders(servico, factory, integrator, aprovado):
    async with AsyncVitrine(integrator.key, url=servico) as cliente:
        # a media type the check rejected: its pendencias in campos
        sem_fotos = await cliente.produtos.salvar(aprovado["contaId"], "SEM-FOTOS", {"nome": "Sem fotos"})
        await cliente.conferencia.aguardar(sem_fotos.id, intervalo=0.2, tempo_maximo=30)
        with pytest.raises(TipoDeMidiaNaoAprovado) as levantado:
            await cliente.videos.criar(sem_fotos.id)
        assert levantado.value.campos
        # an empty wallet
        await factory.ajustar(integrator, -1000)
        with pytest.raises(CreditosInsuficientes) as levantado:
            await cliente.galerias.criar(aprovado["id"], 3)
        _bem_formado(levantado.value, "INSUFFICIENT_CREDITS", 402)


async def test_lists_walk_across_pages_by_themselves(servico, factory, integrator):
    # given 5 accounts
    criadas = {(await factory.conta(integrator, codigo_externo=f"pag-{i}"))["id"] for i in range(5)}
    pedidos: list[httpx.Request] = []

    async def contar(request: httpx.Request) -> None:
        pedidos.append(request)

    # when they are listed 2 per page, async
    http = httpx.AsyncClient(event_hooks={"request": [contar]})
    async with AsyncVitrine(integrator.key, url=servico, http=http) as cliente:
        vistas = [conta async for conta in cliente.contas.listar(limite=2)]
        primeira = await cliente.contas.listar(limite=2).pagina()
    await http.aclose()
    # then every account came once, in 3 requests, each after the previous page's cursor
    assert all(isinstance(c, Conta) for c in vistas)
    assert [c.id for c in vistas] == list(dict.fromkeys(c.id for c in vistas)) and {c.id for c in vistas} == criadas
    assert [r.url.params.get("cursor") is not None for r in pedidos[:3]] == [False, True, True]
    assert len(primeira.itens) == 2 and primeira.proximo_cursor

    # and the same with the sync client
    def listar() -> list[str]:
        with Vitrine(integrator.key, url=servico) as cliente:
            return [conta.id for conta in cliente.contas.listar(limite=2)]

    assert await asyncio.to_thread(listar) == [c.id for c in vistas]


async def test_a_filtered_list_and_a_list_of_one_page(servico, factory, integrator):
    await factory.conta(integrator, codigo_externo="filtro-a")
    await factory.conta(integrator, codigo_externo="filtro-b")
    async with AsyncVitrine(integrator.key, url=servico) as cliente:
        so_uma = [c.codigoExterno async for c in cliente.contas.listar(codigo_externo="filtro-b")]

        async def registradas():  # the call log is written in the background
            chamadas = [c async for c in cliente.integracao.chamadas(metodo="POST", endpoint="/contas", limite=1)]
            assert len(chamadas) == 2, chamadas
            return chamadas

        chamadas = await eventually(registradas)
    assert so_uma == ["filtro-b"]
    assert all(c.metodo == "POST" and c.endpoint == "/contas" and c.status == 201 for c in chamadas)


async def test_a_ficha_as_the_generated_model(servico, integrator):
    from vitrine_client.modelos import Ficha

    ficha = Ficha.model_validate(RICA)
    async with AsyncVitrine(integrator.key, url=servico) as cliente:
        conta = await cliente.contas.criar("modelo-1", "Loja Modelo")
        produto = await cliente.produtos.salvar(conta.id, "SKU/COM BARRA", ficha)
        mesma = await cliente.produtos.obter(conta.id, "SKU/COM BARRA")
        listados = [p.id async for p in cliente.produtos.listar(conta.id)]
    assert produto.situacao == "conferindo" and produto.versao == 1 and produto.nome == RICA["nome"]
    assert mesma.id == produto.id and listados == [produto.id]
