"""In-process execution of GraphQL operations for the REST facade, the portal and tasks.

Each operation document is parsed and validated once, then executed directly with graphql-core,
so a REST call pays only for resolving its fields. Expected failures come back as the ApiError
the resolver raised; anything else propagates as the unexpected exception it is."""

from __future__ import annotations

import inspect
from typing import Any

from graphql import DocumentNode, ExecutionResult, execute, parse, validate

from graphql_api.core.context import Context
from graphql_api.core.errors import ApiError


class OperationError(Exception):
    """A GraphQL error with no original exception: a bug in an operation document or variables."""


class Operation:
    """One GraphQL document, parsed and validated against the schema on first use."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._document: DocumentNode | None = None

    @property
    def document(self) -> DocumentNode:
        if self._document is None:
            from graphql_api.schema import schema

            document = parse(self.source)
            errors = validate(schema._schema, document)
            if errors:
                raise OperationError(f"invalid operation: {errors}")
            self._document = document
        return self._document


async def run(operation: Operation, context: Context, variables: dict[str, Any] | None = None) -> dict[str, Any]:
    from graphql_api.schema import schema

    result = execute(
        schema._schema, operation.document, context_value=context, variable_values=variables
    )
    if inspect.isawaitable(result):
        result = await result
    return unwrap(result)


def unwrap(result: ExecutionResult) -> dict[str, Any]:
    if result.errors:
        error = result.errors[0]
        original = error.original_error
        if isinstance(original, ApiError):
            raise original
        if original is not None:
            raise original
        raise OperationError(error.message)
    assert result.data is not None
    return result.data
