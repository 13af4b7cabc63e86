"""Clearing the test environment (graphql_api/integracao/limpeza.py): each domain deletes its own
test rows of one integrator with a function of its repository, and the composition root
(vitrine/ligacoes.py) lists those functions in the order that keeps foreign keys whole: rows that
point at others go before the rows they point at. Every function runs inside the caller's
transaction, matches only `ambiente = teste`, and returns how many rows of each kind it deleted."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from graphql_api.core.tarefas import PortaNaoLigada

Apagar = Callable[[str], Awaitable[dict[str, int]]]

_passos: tuple[Apagar, ...] = ()


def instalar(passos: Sequence[Apagar]) -> None:
    """The domains' deleting functions, children before parents."""
    global _passos
    _passos = tuple(passos)


def passos() -> tuple[Apagar, ...]:
    return _passos


async def apagar(integrador_id: str) -> dict[str, int]:
    """Run every domain's part in order; what was deleted, by kind, in that order."""
    if not _passos:
        raise PortaNaoLigada("test data cleared, but no domain's part is installed (vitrine/ligacoes.py)")
    apagados: dict[str, int] = {}
    for passo in _passos:
        apagados |= await passo(integrador_id)
    return apagados
