"""The domain queues work by task name through one port (graphql_api.core.tarefas): unwired it
fails loudly, wired it reaches the broker, and the domain imports no door and no task module."""

import ast
from pathlib import Path

import pytest

from graphql_api.core import tarefas

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def unwired():
    previous = tarefas.instalar(None)
    yield
    tarefas.instalar(previous)


async def test_queueing_through_an_unwired_port_fails_loudly(unwired):
    with pytest.raises(tarefas.PortaNaoLigada, match="email.enviar"):
        await tarefas.enfileirar("email.enviar", "eml_x")


async def test_the_port_passes_name_and_arguments_to_the_installed_sender(unwired):
    sent = []

    async def sender(nome, *args):
        sent.append((nome, args))

    tarefas.instalar(sender)
    await tarefas.enfileirar("geracao.renderizar", "ger_1")
    assert sent == [("geracao.renderizar", ("ger_1",))]


async def test_the_broker_refuses_a_task_name_no_module_registered(unwired):
    from tasks.broker import enfileirar, wire_task_port

    wire_task_port()
    assert tarefas.instalar(None) is enfileirar
    with pytest.raises(LookupError, match="geracao.renderizr"):
        await enfileirar("geracao.renderizr", "ger_1")


def _imported_modules(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
