"""GraphQL input types derived from the domain's pydantic models, so each input's rules live in
one place (the model) and introspection still shows its shape: a model becomes an input type with
the model's own field names, a Literal of GraphQL-safe names an enum, a nested model a nested
input, list[X] a list. The resolver turns the input back into the dict the model validates
(`as_dados`): GraphQL checks shapes and types, the model every rule and its error format."""

from __future__ import annotations

import enum
import re
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin

import strawberry
from pydantic import BaseModel

_NAME = re.compile(r"^[_A-Za-z][_0-9A-Za-z]*$")
_SCALARS = {str: str, int: int, float: float, bool: bool}
_inputs: dict[type[BaseModel], type] = {}
_enums: dict[tuple[str, tuple], type[enum.Enum]] = {}


def _enum(name: str, values: tuple) -> type[enum.Enum]:
    key = (name, values)
    if key not in _enums:
        _enums[key] = strawberry.enum(enum.Enum(name, {v: v for v in values}))  # type: ignore[misc]
    return _enums[key]


def _graphql_type(annotation: Any, owner: str, field: str) -> Any:
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is typing.Annotated:
        return _graphql_type(args[0], owner, field)
    if origin in (Union, types.UnionType):
        present = [a for a in args if a is not type(None)]
        inner = _graphql_type(present[0], owner, field) if len(present) == 1 else None
        if inner is None:
            raise TypeError(f"{owner}.{field}: unions other than X | None have no GraphQL input")
        return inner | None if type(None) in args else inner
    if origin is Literal:
        if all(isinstance(v, str) and _NAME.match(v) for v in args):
            return _enum(f"{owner}{field[0].upper()}{field[1:]}", tuple(args))
        kinds = {type(v) for v in args}
        if len(kinds) == 1 and kinds <= set(_SCALARS):
            return _SCALARS[kinds.pop()]  # values GraphQL cannot name: the model checks them
        raise TypeError(f"{owner}.{field}: Literal of mixed types")
    if origin is list:
        return list[_graphql_type(args[0], owner, field)]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return input_type(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return strawberry.enum(annotation)
    for python, graphql in _SCALARS.items():
        if isinstance(annotation, type) and issubclass(annotation, python):
            return graphql
    raise TypeError(f"{owner}.{field}: {annotation!r} has no GraphQL input")


def input_type(model: type[BaseModel], name: str | None = None) -> type:
    """The GraphQL input of a pydantic model (one per model, named <Model>Input)."""
    if model in _inputs:
        return _inputs[model]
    name = name or f"{model.__name__}Input"
    annotations, namespace = {}, {}
    for field_name, info in model.model_fields.items():
        graphql = _graphql_type(
            typing.Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation, model.__name__, field_name
        )
        required = info.is_required()
        annotations[field_name] = graphql if required else graphql | None
        namespace[field_name] = strawberry.field(
            name=field_name, description=info.description,
            **({} if required else {"default": strawberry.UNSET}),
        )
    namespace["__annotations__"] = annotations
    namespace["__doc__"] = (model.__doc__ or "").strip() or None
    cls = strawberry.input(type(name, (), namespace), name=name, description=namespace["__doc__"])
    _inputs[model] = cls
    return cls


def as_dados(value: Any) -> Any:
    """An input value back as plain JSON-like data: fields left out stay out (the model's
    defaults apply), enums become their values."""
    if value is None or value is strawberry.UNSET:
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list):
        return [as_dados(item) for item in value]
    fields = getattr(value, "__strawberry_definition__", None)
    if fields is not None:
        return {
            f.python_name: as_dados(getattr(value, f.python_name))
            for f in fields.fields
            if getattr(value, f.python_name) is not strawberry.UNSET
        }
    return value


def entrada(model: type[BaseModel], dados: Any) -> dict[str, Any] | None:
    """A door's data as the variables of a typed input: validated by the model first, so a
    mistake is reported as VALIDATION_FAILED with its exact field paths (GraphQL's own coercion
    would refuse it with a bare GraphQL error), then dumped with only the fields given."""
    if dados is None:
        return None
    from graphql_api.core.validation import validate

    return validate(model, dados).model_dump(mode="json", exclude_unset=True)
