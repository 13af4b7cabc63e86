"""The domain queues work by task name through one port (graphql_api.core.tarefas): unwired it
fails loudly, wired it reaches the broker, and the domain imports no door and no task module."""

import ast
import subprocess
import sys
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


def test_a_port_wired_for_later_registers_the_tasks_at_the_first_one_queued():
    # In a process of its own: this one has every task module imported already.
    program = """
import sys
from tasks.broker import registered_task, wire_task_port
from tasks.registry import TASK_MODULES

wire_task_port(now=False)
before = [m for m in TASK_MODULES if m in sys.modules]
task = registered_task("email.enviar")
after = [m for m in TASK_MODULES if m not in sys.modules]
try:
    registered_task("email.enviarr")
    unknown = "found"
except LookupError as error:
    unknown = str(error)
print(before, task.task_name, after, unknown, sep="\\n")
"""
    result = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    before, name, after, unknown = result.stdout.splitlines()
    assert before == "[]"  # a command that queues nothing loads no task module
    assert name == "email.enviar" and after == "[]"
    assert "no task named 'email.enviarr'" in unknown


def _imported_modules(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
