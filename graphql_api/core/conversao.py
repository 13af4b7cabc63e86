"""The one model → GraphQL type conversion: a strawberry type's fields are filled from the
attributes of the same name of a model (or of any object), except those the caller computes."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_CAMPOS: dict[type, tuple[str, ...]] = {}


def _campos(tipo: type) -> tuple[str, ...]:
    """The fields the type's constructor takes (strawberry types are dataclasses; fields with a
    resolver are not among them)."""
    if tipo not in _CAMPOS:
        _CAMPOS[tipo] = tuple(campo.name for campo in dataclasses.fields(tipo) if campo.init)
    return _CAMPOS[tipo]


def do_modelo(tipo: type[T], origem: object, /, **calculados: Any) -> T:
    """An instance of `tipo`: each field is `calculados[nome]` when given, else `origem.nome`. A
    field the type requires and `origem` lacks fails loudly, as does a computed one the type lacks."""
    desconhecidos = calculados.keys() - set(_campos(tipo))
    if desconhecidos:
        raise TypeError(f"{tipo.__name__} has no field {', '.join(sorted(desconhecidos))}")
    valores = {
        nome: getattr(origem, nome) for nome in _campos(tipo) if nome not in calculados and hasattr(origem, nome)
    }
    return tipo(**valores, **calculados)
