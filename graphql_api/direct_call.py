"""Strawberry's resolver wrapper, done directly for the root fields the facade calls most.

Around every resolver Strawberry converts the GraphQL arguments into Python values, builds the
chain of field extensions and awaits through it: ~6% of the event loop's samples in a py-spy
profile of a REST read by id. (Together with the executor's prepared variables, the change
measured 3-5% less facade CPU per request in bench/api_overhead.py, old and new code alternating.)
For a root field whose arguments are built-in scalars (which convert to
themselves) and whose only extensions are permission checks (graphql_api/core/permissions.py),
that work reduces to renaming the arguments, running the checks in Strawberry's order and calling
the resolver. Any other field keeps Strawberry's wrapper; tests/unit/test_executor.py holds the
direct call to the same answers and errors as Strawberry's, and fails should its wrapper change
shape under us. Only the fast executor calls it: with VITRINE_GRAPHQL_SHORTCUTS=off
(graphql_api/core/shortcuts.py) every resolver runs inside Strawberry's wrapper."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import FunctionType
from typing import Any, NamedTuple, cast

import strawberry
from graphql import GraphQLField
from strawberry.exceptions import PermissionReturnedNonBooleanError
from strawberry.permission import BasePermission, PermissionExtension
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.base import StrawberryOptional
from strawberry.types.field import StrawberryField

# Python types of arguments Strawberry hands to the resolver as graphql-core coerced them.
_SELF_CONVERTING = (str, int, bool, strawberry.ID)


class DirectCall(NamedTuple):
    field: StrawberryField
    resolver: Callable[..., Any]
    passes_source: bool  # the resolver's `self`
    info_parameter: str | None
    python_names: dict[str, str]  # GraphQL argument name -> the resolver's parameter
    permissions: tuple[BasePermission, ...]  # in the order Strawberry checks them
    info_class: type

    async def __call__(self, source: Any, raw_info: Any, arguments: dict[str, Any]) -> Any:
        info = self.info_class(_raw_info=raw_info, _field=self.field)
        kwargs = {self.python_names[name]: value for name, value in arguments.items()}
        for permission in self.permissions:
            allowed = permission.has_permission(source, info, **kwargs)
            if inspect.isawaitable(allowed):
                allowed = await allowed
            if not isinstance(allowed, bool):
                raise PermissionReturnedNonBooleanError(permission, allowed)
            if not allowed:
                return permission.on_unauthorized()  # no fail_silently here: it raises
        if self.info_parameter is not None:
            kwargs[self.info_parameter] = info
        return await (self.resolver(source, **kwargs) if self.passes_source else self.resolver(**kwargs))


def direct_call(schema: strawberry.Schema, field_def: GraphQLField) -> DirectCall | None:
    """The direct call of this field, or None when only Strawberry's wrapper gives its semantics."""
    field = (field_def.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
    if not isinstance(field, StrawberryField) or field.base_resolver is None or not field.is_async:
        return None
    resolver = field.base_resolver
    function = resolver.wrapped_func
    if not isinstance(function, FunctionType) or resolver.parent_parameter or resolver.root_parameter:
        return None
    # Field-level exception handlers turn errors into results: Strawberry's wrapper only.
    if getattr(schema.schema_converter, "_exception_handler_specs", None) != ():
        return None
    if not field.extensions or any(
        type(extension) is not PermissionExtension or extension.fail_silently for extension in field.extensions
    ):
        return None
    python_names = {}
    for argument in field.arguments:
        argument_type = argument.type
        if type(argument_type) is StrawberryOptional:  # not Maybe, which wraps the value
            argument_type = argument_type.of_type
        if argument_type not in _SELF_CONVERTING or argument.python_name is None:
            return None
        python_names[schema.config.name_converter.from_argument(argument)] = argument.python_name
    if set(python_names) != set(field_def.args):
        return None
    # Strawberry chains the extensions so that the last one listed runs first.
    permissions = tuple(
        p for extension in reversed(field.extensions) for p in cast(PermissionExtension, extension).permissions
    )
    return DirectCall(
        field=field,
        resolver=function,
        passes_source=resolver.self_parameter is not None,
        info_parameter=resolver.info_parameter.name if resolver.info_parameter is not None else None,
        python_names=python_names,
        permissions=permissions,
        info_class=schema.config.info_class,
    )
