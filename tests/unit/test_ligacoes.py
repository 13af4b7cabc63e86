"""The domains' signals and ports (graphql_api/core/sinais.py) and their wiring by the composition
root (vitrine/ligacoes.py): nothing a domain declares is left unconnected, and an unconnected one
is loud."""

import importlib
import pkgutil

import pytest

import graphql_api
from graphql_api.core import dados_de_teste
from graphql_api.core.sinais import Porta, PortaNaoLigada, Sinal, porta
from vitrine import ligacoes


def _declared() -> list[tuple[str, Sinal | Porta]]:
    """Every signal and port of every module of the domain, once (the module that declares it)."""
    found: dict[int, tuple[str, Sinal | Porta]] = {}
    for module in pkgutil.walk_packages(graphql_api.__path__, "graphql_api."):
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if isinstance(value, Sinal | Porta):
                found.setdefault(id(value), (f"{module.name}.{name}", value))
    return list(found.values())


def test_every_signal_and_port_a_domain_declares_is_wired():
    ligacoes.ligar()
    declared = _declared()
    assert {nome for nome, _ in declared} >= {
        "graphql_api.evento.service.registrado",
        "graphql_api.aviso.testes.rodada_concluida",
        "graphql_api.chave.service.bloqueio_producao",
        "graphql_api.core.alertas.abrir",
    }
    unwired = [
        nome
        for nome, value in declared
        if (isinstance(value, Sinal) and not value.receptores) or (isinstance(value, Porta) and not value.instalada)
    ]
    assert not unwired, unwired
    assert dados_de_teste.passos()


async def test_receivers_imported_on_first_use_name_real_functions():
    for receber in ligacoes.TARDIOS.values():
        modulo, _, nome = receber.__qualname__.rpartition(".")
        assert callable(getattr(importlib.import_module(modulo), nome)), receber.__qualname__


def test_wiring_twice_connects_each_receiver_once():
    from graphql_api.evento import service as eventos

    ligacoes.ligar()
    antes = eventos.registrado.receptores
    ligacoes.ligar()
    assert eventos.registrado.receptores == antes
    assert len(set(antes)) == len(antes) == 3


async def test_receivers_run_in_order_and_an_unconnected_signal_is_loud():
    sinal: Sinal[int] = Sinal("teste.sinal")
    with pytest.raises(PortaNaoLigada):
        await sinal.emitir(1)
    ouvidos = []

    async def primeiro(n: int) -> None:
        ouvidos.append(("primeiro", n))

    async def segundo(n: int) -> None:
        ouvidos.append(("segundo", n))

    sinal.ligar(primeiro)
    sinal.ligar(segundo)
    await sinal.emitir(7)
    assert ouvidos == [("primeiro", 7), ("segundo", 7)]


async def test_a_port_runs_what_is_installed_and_is_loud_without_it():
    @porta("teste.porta")
    async def dobro(n: int) -> int:
        raise NotImplementedError

    with pytest.raises(PortaNaoLigada):
        await dobro(2)

    async def impl(n: int) -> int:
        return 2 * n

    dobro.instalar(impl)
    assert await dobro(21) == 42


async def test_clearing_test_data_runs_each_part_in_order(monkeypatch):
    chamados = []

    def parte(nome: str):
        async def apagar(integrador_id: str) -> dict[str, int]:
            chamados.append((nome, integrador_id))
            return {nome: len(chamados)}

        return apagar

    monkeypatch.setattr(dados_de_teste, "_passos", ())
    with pytest.raises(PortaNaoLigada):
        await dados_de_teste.apagar("itg_1")
    dados_de_teste.instalar([parte("filhos"), parte("pais")])
    assert await dados_de_teste.apagar("itg_1") == {"filhos": 1, "pais": 2}
    assert chamados == [("filhos", "itg_1"), ("pais", "itg_1")]
