"""Cursor pagination: lists come newest first, ordered by their time-ordered ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

import strawberry
from tortoise.queryset import QuerySet

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import pode_existir

DEFAULT_LIMIT = 20
MAX_LIMIT = 100

T = TypeVar("T")


@strawberry.type
class Paginacao:
    limite: int
    proximo_cursor: str | None


@strawberry.type
class Pagina(Generic[T]):
    itens: list[T]
    paginacao: Paginacao


@dataclass(frozen=True, slots=True)
class PageRequest:
    limite: int = DEFAULT_LIMIT
    cursor: str | None = None

    @classmethod
    def of(cls, limite: int | None, cursor: str | None, *, prefixo: str) -> PageRequest:
        """`prefixo`: the id prefix of the listed items; a cursor is the id of the last item seen,
        so anything else is a mistake worth telling (it would silently list nothing)."""
        limite = DEFAULT_LIMIT if limite is None else limite
        if not 1 <= limite <= MAX_LIMIT:
            raise ApiError(
                "VALIDATION_FAILED",
                fields=[FieldError("limite", "fora_do_intervalo", f"Use de 1 a {MAX_LIMIT}.")],
            )
        if cursor is not None and not pode_existir(cursor, prefixo):
            raise ApiError(
                "VALIDATION_FAILED",
                fields=[
                    FieldError(
                        "cursor", "formato_invalido", "Use o valor de paginacao.proximoCursor da página anterior."
                    )
                ],
            )
        return cls(limite, cursor)


def consulta_da_pagina(query: QuerySet, page: PageRequest, *, id_field: str = "id") -> QuerySet:
    """The query of one page: newest first from the cursor, one row more than the page to know
    whether another follows. Every list has an index ending in the id after its filters, so this
    reads `limite + 1` index entries at any depth (tests/unit/test_indices.py)."""
    if page.cursor:
        query = query.filter(**{f"{id_field}__lt": page.cursor})
    return query.order_by(f"-{id_field}").limit(page.limite + 1)


async def paginate(
    query: QuerySet, page: PageRequest, *, escopo: QuerySet | None = None, id_field: str = "id"
) -> tuple[list, str | None]:
    """One page of `query` and the cursor of the next page (None on the last page).

    The cursor must be an item of this list: of `escopo`, the list's rows before its filters that
    can change (situacao), deleted ones included — `query` itself when it has none. An item of
    another list or another tenant is 422 (it would silently list something else); an id no row
    has any more (deleted, purged) still pages from where it was."""
    if page.cursor is not None:
        await _exigir_da_lista(escopo if escopo is not None else query, page.cursor, id_field)
    rows = await consulta_da_pagina(query, page, id_field=id_field)
    has_more = len(rows) > page.limite
    rows = rows[: page.limite]
    next_cursor = getattr(rows[-1], id_field) if has_more and rows else None
    return rows, next_cursor


async def _exigir_da_lista(escopo: QuerySet, cursor: str, id_field: str) -> None:
    if await escopo.filter(**{id_field: cursor}).exists():
        return
    if await escopo.model.filter(**{id_field: cursor}).exists():
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[
                FieldError(
                    "cursor",
                    "valor_invalido",
                    "Este cursor é de outra lista: use o paginacao.proximoCursor da página anterior desta mesma "
                    "lista (mesmo caminho, mesma credencial).",
                )
            ],
        )


def pagina(itens: list[T], page: PageRequest, next_cursor: str | None) -> Pagina[T]:
    return Pagina(itens=itens, paginacao=Paginacao(limite=page.limite, proximo_cursor=next_cursor))
