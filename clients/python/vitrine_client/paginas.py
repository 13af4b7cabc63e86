"""Lists that walk across pages by themselves (`?cursor=` with each page's proximoCursor)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Generic, TypeVar

from vitrine_client._nucleo import Pagina

T = TypeVar("T")


class Paginas(Generic[T]):
    """`for item in cliente.contas.listar(): ...` fetches the next page when the previous one
    ends; `pagina(cursor)` reads one page when the caller keeps the cursor itself."""

    def __init__(self, buscar: Callable[[str | None], Pagina]) -> None:
        self._buscar = buscar

    def pagina(self, cursor: str | None = None) -> Pagina:
        return self._buscar(cursor)

    def __iter__(self) -> Iterator[T]:
        cursor: str | None = None
        while True:
            pagina = self._buscar(cursor)
            yield from pagina.itens
            cursor = pagina.proximo_cursor
            if not cursor:
                return


class AsyncPaginas(Generic[T]):
    """`async for item in cliente.contas.listar(): ...`; `await pagina(cursor)` for one page."""

    def __init__(self, buscar: Callable[[str | None], Awaitable[Pagina]]) -> None:
        self._buscar = buscar

    async def pagina(self, cursor: str | None = None) -> Pagina:
        return await self._buscar(cursor)

    async def __aiter__(self) -> AsyncIterator[T]:
        cursor: str | None = None
        while True:
            pagina = await self._buscar(cursor)
            for item in pagina.itens:
                yield item
            cursor = pagina.proximo_cursor
            if not cursor:
                return
