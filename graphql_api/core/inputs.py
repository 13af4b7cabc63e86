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
from collections.abc import Callable
from typing import Any, Literal, Union, cast, get_args, get_origin

import annotated_types
import strawberry
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from graphql_api.core.scalars import Inteiro64
from graphql_api.core.validation import validate

_NAME = re.compile(r"^[_A-Za-z][_0-9A-Za-z]*$")
_SCALARS = {str: str, bool: bool, int: int, float: float}  # bool before int: bool is an int
_INT32 = (-(2**31), 2**31 - 1)
_inputs: dict[type[BaseModel], type] = {}
_enums: dict[tuple[str, tuple], type[enum.Enum]] = {}
_whole_numbers: dict[type, set[str]] = {}  # input class -> its Float fields that were int | float


def _bounds(metadata: typing.Iterable[Any]) -> tuple[float, float]:
    low, high = float("-inf"), float("inf")
    for item in metadata:
        for m in item.metadata if isinstance(item, FieldInfo) else (item,):
            # annotated_types types a bound as "comparable"; on the int fields measured here it is a number
            if isinstance(m, annotated_types.Ge | annotated_types.Gt):
                low = max(low, cast(float, m.ge if isinstance(m, annotated_types.Ge) else m.gt))
            elif isinstance(m, annotated_types.Le | annotated_types.Lt):
                high = min(high, cast(float, m.le if isinstance(m, annotated_types.Le) else m.lt))
    return low, high


def _is_number(graphql: Any) -> bool:
    return graphql in (int, float, Inteiro64)


def _enum(name: str, values: tuple) -> type[enum.Enum]:
    key = (name, values)
    if key not in _enums:
        members: type[enum.Enum] = enum.Enum(name, {v: v for v in values})  # type: ignore[misc]  # mypy reads Enum(name, ...) only with a literal name
        _enums[key] = strawberry.enum(members)
    return _enums[key]


def _graphql_type(annotation: Any, owner: str, field: str, metadata: tuple = ()) -> Any:
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is typing.Annotated:
        return _graphql_type(args[0], owner, field, metadata + tuple(args[1:]))
    if origin in (Union, types.UnionType):
        present = [_graphql_type(a, owner, field, metadata) for a in args if a is not type(None)]
        if len(present) == 1:
            inner = present[0]
        elif all(_is_number(p) for p in present):
            inner = float  # int | float: a Float carries both
        else:
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
        return types.GenericAlias(list, (_graphql_type(args[0], owner, field),))  # list[X], X known at run time
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return input_type(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        # an enum the domain already declared (@strawberry.enum) keeps its one definition
        return annotation if hasattr(annotation, "__strawberry_definition__") else strawberry.enum(annotation)
    for python, graphql in _SCALARS.items():
        if isinstance(annotation, type) and issubclass(annotation, python):
            if graphql is int:
                low, high = _bounds(metadata)
                return int if _INT32[0] <= low and high <= _INT32[1] else Inteiro64
            return graphql
    raise TypeError(f"{owner}.{field}: {annotation!r} has no GraphQL input")


def input_type(model: type[BaseModel], name: str | None = None) -> type:
    """The GraphQL input of a pydantic model (one per model, named <Model>Input)."""
    if model in _inputs:
        return _inputs[model]
    name = name or f"{model.__name__}Input"
    annotations, namespace, whole = {}, {}, set()
    for field_name, info in model.model_fields.items():
        graphql = _graphql_type(info.annotation, model.__name__, field_name, tuple(info.metadata))
        if graphql in (float, float | None) and _takes_int(info.annotation):
            whole.add(field_name)
        required = info.is_required()
        annotations[field_name] = graphql if required else graphql | None
        namespace[field_name] = strawberry.field(
            name=field_name,
            description=info.description,
            **({} if required else {"default": strawberry.UNSET}),
        )
    namespace["__annotations__"] = annotations
    namespace["__doc__"] = (model.__doc__ or "").strip() or None
    cls = strawberry.input(type(name, (), namespace), name=name, description=namespace["__doc__"])
    _inputs[model] = cls
    _whole_numbers[cls] = whole
    return cls


def _takes_int(annotation: Any) -> bool:
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is typing.Annotated:
        return _takes_int(args[0])
    if origin in (Union, types.UnionType):
        return any(_takes_int(a) for a in args)
    return annotation is int


def union_input(name: str, models: typing.Sequence[type[BaseModel]], description: str | None = None) -> type:
    """One input for a union of models told apart by a field (`tipo`): every field of every
    model, optional except the ones all share; enums of the same field name are merged. The
    model of the chosen `tipo` then refuses the fields that are not its own."""
    fields: dict[str, list[Any]] = {}
    for model in models:
        for field_name, info in model.model_fields.items():
            fields.setdefault(field_name, []).append(
                typing.Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
            )
    owner = name.removesuffix("Input")
    annotations, namespace = {}, {}
    for field_name, annotations_of in fields.items():
        literals = [get_args(a)[0] if get_origin(a) is typing.Annotated else a for a in annotations_of]
        if all(get_origin(a) is Literal for a in literals):
            values = tuple(dict.fromkeys(v for a in literals for v in get_args(a)))
            graphql = _graphql_type(Literal[values], owner, field_name)
        else:
            graphql = _graphql_type(annotations_of[0], owner, field_name)
            if any(_graphql_type(a, owner, field_name) != graphql for a in annotations_of[1:]):
                raise TypeError(f"{name}.{field_name}: the models give it different types")
        required = len(annotations_of) == len(models) and all(m.model_fields[field_name].is_required() for m in models)
        annotations[field_name] = graphql if required else graphql | None
        namespace[field_name] = strawberry.field(name=field_name, **({} if required else {"default": strawberry.UNSET}))
    namespace["__annotations__"] = annotations
    cls = strawberry.input(type(name, (), namespace), name=name, description=description)
    _whole_numbers[cls] = set()
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
        whole = _whole_numbers.get(type(value), ())
        dados = {}
        for f in fields.fields:
            item = getattr(value, f.python_name)
            if item is strawberry.UNSET:
                continue
            if f.python_name in whole and isinstance(item, float) and item.is_integer():
                item = int(item)  # GraphQL's Float turned the int that was sent into a float
            dados[f.python_name] = as_dados(item)
        return dados
    return value


def entrada(model: type[BaseModel] | Callable[[Any], BaseModel], dados: Any) -> dict[str, Any] | None:
    """A door's data as the variables of a typed input: validated by the model (or by the
    domain's parse function, for rules beyond one model) first, so a mistake is reported as
    VALIDATION_FAILED with its exact field paths (GraphQL's own coercion would refuse it with a
    bare GraphQL error), then dumped with only the fields given."""
    if dados is None:
        return None
    parsed = validate(model, dados) if isinstance(model, type) else model(dados)
    return parsed.model_dump(mode="json", exclude_unset=True)
