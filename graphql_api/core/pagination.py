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


async def paginate(query: QuerySet, page: PageRequest, *, id_field: str = "id") -> tuple[list, str | None]:
    """One page of `query` and the cursor of the next page (None on the last page)."""
    rows = await consulta_da_pagina(query, page, id_field=id_field)
    has_more = len(rows) > page.limite
    rows = rows[: page.limite]
    next_cursor = getattr(rows[-1], id_field) if has_more and rows else None
    return rows, next_cursor


def pagina(itens: list[T], page: PageRequest, next_cursor: str | None) -> Pagina[T]:
    return Pagina(itens=itens, paginacao=Paginacao(limite=page.limite, proximo_cursor=next_cursor))
