"""The domain's one way to queue background work: by task name ("geracao.renderizar"), through a
sender the composition root installs (the web app, the worker start-up, the CLI wire taskiq's
broker). The domain never imports the task modules: they import the domain."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Enfileirador = Callable[..., Awaitable[None]]

_enfileirador: Enfileirador | None = None


class PortaNaoLigada(RuntimeError):
    """Work was queued in a process whose composition root installed no sender."""


def instalar(enfileirador: Enfileirador | None) -> Enfileirador | None:
    """Install the sender (`await enfileirador(nome, *args)`); returns the one it replaces."""
    global _enfileirador
    anterior, _enfileirador = _enfileirador, enfileirador
    return anterior


async def enfileirar(nome: str, *args: Any) -> None:
    """Queue task `nome` with `args`. Call it through `after_commit` when it is about a row of the
    current transaction: a task must never run before its row exists."""
    if _enfileirador is None:
        # Loud rather than lost: a silent no-op would leave rows for the sweeps to find minutes later.
        raise PortaNaoLigada(
            f"task {nome!r} queued, but this process installed no task sender (graphql_api.core.tarefas.instalar)"
        )
    await _enfileirador(nome, *args)
