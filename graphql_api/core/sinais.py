"""How a lower domain reaches a higher one without importing it (docs/desenvolvimento.md,
"Camadas"). Domains point one way: a reaction of another domain to something that happened here
(a product's new version starts its check, an event judges an integration step) is a `Sinal` this
domain publishes; a question only a higher domain can answer (may this integrator go live?) is a
`Porta` this domain calls. Both are declared by the domain that uses them, and the composition
root (vitrine/ligacoes.py) connects the receivers and installs the answers at start-up.

Receivers run in the order they were connected, awaited one after the other in the publisher's
task (so inside its transaction, when there is one); an exception stops the rest and reaches the
publisher, as a direct call would. Nothing connected is an error, never a silent no-op."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, ParamSpec, TypeVar

from graphql_api.core.tarefas import PortaNaoLigada

T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")

__all__ = ["PortaNaoLigada", "Porta", "Sinal", "porta"]


class Sinal(Generic[T]):
    """A fact of one domain that others react to: `await sinal.emitir(fato)`."""

    def __init__(self, nome: str) -> None:
        self.nome = nome
        self._receptores: list[Callable[[T], Awaitable[object]]] = []

    def ligar(self, receptor: Callable[[T], Awaitable[object]]) -> None:
        """Connect a receiver; connecting the same one again changes nothing."""
        if receptor not in self._receptores:
            self._receptores.append(receptor)

    def desligar(self) -> None:
        self._receptores.clear()

    @property
    def receptores(self) -> tuple[Callable[[T], Awaitable[object]], ...]:
        return tuple(self._receptores)

    async def emitir(self, fato: T) -> None:
        if not self._receptores:
            raise PortaNaoLigada(f"signal {self.nome!r} emitted, but nothing is connected (vitrine/ligacoes.py)")
        for receptor in self._receptores:
            await receptor(fato)


class Porta(Generic[P, R]):
    """A call into a higher domain, with its signature: `await porta(*args)` runs what the
    composition root installed."""

    def __init__(self, nome: str) -> None:
        self.nome = nome
        self._impl: Callable[P, Awaitable[R]] | None = None

    def instalar(self, impl: Callable[P, Awaitable[R]] | None) -> None:
        self._impl = impl

    @property
    def instalada(self) -> bool:
        return self._impl is not None

    async def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if self._impl is None:
            raise PortaNaoLigada(f"port {self.nome!r} called, but nothing is installed (vitrine/ligacoes.py)")
        return await self._impl(*args, **kwargs)


def porta(nome: str) -> Callable[[Callable[P, Awaitable[R]]], Porta[P, R]]:
    """Declare a port by its signature: the decorated stub is never run, it types the calls."""

    def declarar(assinatura: Callable[P, Awaitable[R]]) -> Porta[P, R]:
        declarada: Porta[P, R] = Porta(nome)
        declarada.__doc__ = assinatura.__doc__
        return declarada

    return declarar
