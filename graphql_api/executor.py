"""In-process execution of GraphQL operations for the REST facade, the portal and tasks.

Each operation document is parsed and validated once, then executed directly with graphql-core,
so a REST call pays only for resolving its fields. Expected failures come back as the ApiError
the resolver raised; anything else propagates as the unexpected exception it is.

Strawberry's schema extensions (`strawberry.Schema(extensions=...)`) do NOT run here: only the
staff endpoint at /graphql goes through Strawberry's own execution. A rule every door must obey
belongs in a permission class or a field extension (they are part of the resolvers), never in a
schema extension; tests/unit/test_executor.py fails if a schema extension is added.

Seven shortcuts keep the facade's hot path cheap (bench/api_overhead.py measures it against a
bare handler):
- a document is prepared once (its operation, its fragments, its variables): when every variable
  is a built-in scalar without a default and the values given are already what coercion would
  give (a str for an ID, a 32-bit int for an Int...), the executor is built without coercing them
  again; any other value goes through graphql-core, which converts or refuses it;
- every resolver is plain or `async def`, so a coroutine is the only awaitable a field can return;
- a plain attribute with a scalar or enum type (Strawberry's "basic" field, no resolver, no
  extension) is read and serialised directly, without building a GraphQLResolveInfo. Anything
  unusual on that path (a null, an error) falls back to graphql-core's own handling;
- a selection made only of such fields is executed in one tight loop, planned once per document;
- the sub-selections of a document are collected once, not once per request (graphql-core
  memoises them per execution only). Documents with directives are collected per execution,
  since @include/@skip make the collection depend on variables;
- an operation of one root field whose selection is entirely basic (a REST route's usual shape:
  `geracao(id:) { ...GeracaoFields }`) calls that field's resolver and runs the plan on its value
  directly, without graphql-core's per-field machinery around the one resolver. A value the plan
  cannot complete (a null where none may be) goes back to graphql-core, which reports it;
- that resolver is called without Strawberry's wrapper when its arguments are plain scalars and
  its extensions only permission checks (graphql_api/direct_call.py).

What is found once lives in the document's own cache (_DocumentCache), held by its Operation
together with the document, never in a process-wide table: a key is the id() of a node of that
document or of an object the cache itself holds, so no key can outlive its object and name
another one at the same address. (A plan once cached by the address of a selection collected
for one execution was handed, after that selection died, to a new selection at the same
address: a page showed another page's fields for a whole process's life.)

VITRINE_GRAPHQL_SHORTCUTS=off (graphql_api/core/shortcuts.py) turns all of this off: `run` then
hands the parsed and validated document to graphql-core's own `execute`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from inspect import isawaitable
from types import CoroutineType
from typing import Any, NamedTuple, TypeGuard, cast

import strawberry
from graphql import (
    DocumentNode,
    ExecutionResult,
    FragmentDefinitionNode,
    GraphQLBoolean,
    GraphQLError,
    GraphQLField,
    GraphQLID,
    GraphQLInt,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLString,
    OperationDefinitionNode,
    execute,
    is_leaf_type,
    parse,
    validate,
)
from graphql.execution.collect_fields import FragmentDetails, collect_fields
from graphql.execution.executor import Executor, default_field_resolver, default_type_resolver
from graphql.execution.get_variable_signature import GraphQLVariableSignature, get_variable_signature
from graphql.execution.values import VariableValues, VariableValueSource, get_argument_values
from graphql.pyutils import Path, Undefined
from strawberry.schema.schema_converter import GraphQLCoreConverter

import graphql_api.schema as service_schema  # read at each use: tests swap the schema
from graphql_api.core import shortcuts
from graphql_api.core.context import Context
from graphql_api.core.errors import ApiError
from graphql_api.direct_call import DirectCall, direct_call

# Where Strawberry keeps its own definition of each GraphQL type, field and the schema itself.
_STRAWBERRY_FIELD = GraphQLCoreConverter.DEFINITION_BACKREF


class OperationError(Exception):
    """A GraphQL error with no original exception: a bug in an operation document or variables."""


def _is_coroutine(value: Any) -> TypeGuard[Awaitable[Any]]:
    return type(value) is CoroutineType


_LEAF, _OBJECT, _OBJECT_LIST, _LEAF_LIST = 0, 1, 2, 3


def _unwrap_non_null(graphql_type):
    return graphql_type.of_type if isinstance(graphql_type, GraphQLNonNull) else graphql_type


def _basic_fields(schema: GraphQLSchema) -> dict[tuple[str, str], tuple[str, int, Any]]:
    """(type name, field name) -> (attribute, kind, type) for every "basic" field (a plain
    attribute: no resolver, no extension) whose type is a scalar or enum, a plain object type,
    a list of plain objects, or a list of non-null scalars or enums."""
    fields: dict[tuple[str, str], tuple[str, int, Any]] = {}
    for graphql_type in schema.type_map.values():
        if not isinstance(graphql_type, GraphQLObjectType) or graphql_type.name.startswith("__"):
            continue
        for name, field in graphql_type.fields.items():
            definition = (field.extensions or {}).get(_STRAWBERRY_FIELD)
            if definition is None or not definition.is_basic_field:
                continue
            named = _unwrap_non_null(field.type)
            if is_leaf_type(named):
                fields[(graphql_type.name, name)] = (definition.python_name, _LEAF, named)
            elif isinstance(named, GraphQLObjectType) and named.is_type_of is None:
                fields[(graphql_type.name, name)] = (definition.python_name, _OBJECT, named)
            elif isinstance(named, GraphQLList):
                item = _unwrap_non_null(named.of_type)
                if isinstance(item, GraphQLObjectType) and item.is_type_of is None:
                    fields[(graphql_type.name, name)] = (definition.python_name, _OBJECT_LIST, item)
                elif is_leaf_type(item) and isinstance(named.of_type, GraphQLNonNull):
                    fields[(graphql_type.name, name)] = (definition.python_name, _LEAF_LIST, item)
    return fields


_MAX_INT, _MIN_INT = 2**31 - 1, -(2**31)


def _leaf_serializer(graphql_type) -> Callable[[Any], Any]:
    """The type's serialize, short-cut for values it would return unchanged (a str for String
    and ID, a bool for Boolean, a 32-bit int for Int); anything else goes through serialize."""
    serialize = graphql_type.serialize
    if graphql_type is GraphQLString or graphql_type is GraphQLID:
        return lambda value: value if type(value) is str else serialize(value)
    if graphql_type is GraphQLBoolean:
        return lambda value: value if type(value) is bool else serialize(value)
    if graphql_type is GraphQLInt:
        return lambda value: value if type(value) is int and _MIN_INT <= value <= _MAX_INT else serialize(value)
    return serialize


def _serialize_list(serialize: Callable[[Any], Any], value) -> list | None:
    """A list of non-null leaves, or None for a null item (graphql-core then reports it)."""
    if any(item is None for item in value):
        return None
    return [serialize(item) for item in value]


class _PlanEntry(NamedTuple):
    """One field of a planned selection."""

    response_name: str
    field_details_list: Any
    attribute: str
    kind: int
    graphql_type: Any
    serialize: Callable[[Any], Any] | None  # leaves and leaf lists
    nullable: bool
    child: tuple | None  # objects and object lists: their own plan, when entirely basic


_UNKNOWN: Any = object()  # not looked for yet


class _DocumentCache:
    """What the executor finds in one document once instead of on every execution: the collected
    sub-selections, their plans and the root shortcut. Shared by every execution of a document
    without directives (its Operation holds it, with the document); one per execution otherwise."""

    __slots__ = ("document", "subfields", "plans", "root_shortcut")

    def __init__(self, document: DocumentNode | None) -> None:
        # Every node a key names by id() is alive as long as this cache: it holds the document
        # (None for a cache of one execution, whose executor holds the document meanwhile).
        self.document = document
        # (type name, ids of the field nodes selecting it) -> what collect_subfields returned
        self.subfields: dict[tuple, Any] = {}
        # (type name, id of a grouped field set or of the operation) -> (that object, kept alive
        # so that its id names nothing else, and the plan of its fields or None when some field
        # is not basic: then graphql-core executes that selection as usual)
        self.plans: dict[tuple[str, int], tuple[Any, tuple | None]] = {}
        self.root_shortcut: Any = _UNKNOWN

    @property
    def shared(self) -> bool:
        """Whether the cache outlives the execution (a document without directives)."""
        return self.document is not None


class _FastExecutor(Executor):
    basic_fields: dict[tuple[str, str], tuple[str, int, Any]] = {}
    cache: _DocumentCache | None = None  # set by _build; else one for this execution, on first use

    def _document_cache(self) -> _DocumentCache:
        cache = self.cache
        if cache is None:
            cache = self.cache = _DocumentCache(None)
        return cache

    def collect_subfields(self, return_type, field_details_list):
        cache = self.cache
        if (
            cache is None
            or not cache.shared
            or any(fd.fragment_variable_values is not None for fd in field_details_list)
        ):
            return super().collect_subfields(return_type, field_details_list)
        key = (return_type.name, *(id(fd.node) for fd in field_details_list))
        collected = cache.subfields.get(key)
        if collected is None:
            collected = super().collect_subfields(return_type, field_details_list)
            cache.subfields[key] = collected
            cache.plans[(return_type.name, id(collected[0]))] = (collected[0], _UNKNOWN)  # to plan on first use
        return collected

    def execute_fields(self, parent_type, source_value, path, grouped_field_set, position_context):
        cache = self.cache
        if cache is not None and cache.shared:
            # Sub-selections come from the cache's collect_subfields, so the cache holds them; the
            # root selection is collected anew by every execution, so it is keyed by the operation.
            plan = self._plan_of(parent_type, self.operation if path is None else grouped_field_set, grouped_field_set)
            if plan is not None:
                results = self._execute_basic_fields(plan, parent_type, source_value, path, position_context)
                if results is not None:
                    return results
        return super().execute_fields(parent_type, source_value, path, grouped_field_set, position_context)

    def _plan_of(self, parent_type, owner, grouped_field_set) -> tuple | None:
        """The plan of this selection, cached under `owner` (the selection itself, or the
        operation for the root selection), which the cache keeps alive with it."""
        cache = self._document_cache()
        key = (parent_type.name, id(owner))
        entry = cache.plans.get(key)
        if entry is None:
            if cache.shared and owner is not self.operation:
                return None  # a selection the cache did not collect: it would hold it forever
            entry = (owner, _UNKNOWN)
        if entry[1] is _UNKNOWN:
            entry = cache.plans[key] = (owner, self._plan(parent_type, grouped_field_set))
        return entry[1]

    def _plan(self, parent_type, grouped_field_set) -> tuple | None:
        plan = []
        for response_name, field_details_list in grouped_field_set.items():
            node = field_details_list[0].node
            basic = None if node.arguments else self.basic_fields.get((parent_type.name, node.name.value))
            if basic is None:
                return None
            nullable = not isinstance(parent_type.fields[node.name.value].type, GraphQLNonNull)
            attribute, kind, graphql_type = basic
            serialize = _leaf_serializer(graphql_type) if kind in (_LEAF, _LEAF_LIST) else None
            child = self._child_plan(graphql_type, field_details_list) if kind in (_OBJECT, _OBJECT_LIST) else None
            if kind in (_OBJECT, _OBJECT_LIST) and child is None:
                return None  # its resolvers may be async: graphql-core's loop awaits them
            plan.append(
                _PlanEntry(response_name, field_details_list, attribute, kind, graphql_type, serialize, nullable, child)
            )
        return tuple(plan)

    def _child_plan(self, object_type, field_details_list) -> tuple | None:
        """The plan of an object's sub-selection when it is entirely basic, all the way down:
        then it runs nested in the same loop, with no Path and no graphql-core call per object
        (a fallback re-executes from the top, so error paths still come from graphql-core)."""
        if any(fd.fragment_variable_values is not None for fd in field_details_list):
            return None
        grouped_field_set = self.collect_subfields(object_type, field_details_list)[0]
        plan = self._plan_of(object_type, grouped_field_set, grouped_field_set)
        if plan is None or any(entry.kind in (_OBJECT, _OBJECT_LIST) and entry.child is None for entry in plan):
            return None
        return plan

    def _execute_basic_fields(self, plan, parent_type, source, path, position_context) -> dict | None:
        """A selection of basic fields only, in one tight loop; None sends it back to graphql-core
        (a null in a non-null field, an error) so that it reports the problem as usual."""
        results: dict[str, Any] = {}
        for response_name, _field_details, attribute, kind, graphql_type, serialize, nullable, child in plan:
            value = getattr(source, attribute, None)
            if value is None:
                if not nullable:
                    return None
                results[response_name] = None
                continue
            try:
                if kind == _LEAF:  # no Path for leaves: only a fallback reports errors, with its own
                    completed = serialize(value)
                elif kind == _LEAF_LIST:
                    completed = _serialize_list(serialize, value)
                else:
                    completed = self._execute_nested(kind, child, graphql_type, value, position_context)
            except Exception:
                return None
            if completed is None:
                return None
            results[response_name] = completed
        return results

    def _execute_nested(self, kind, plan, object_type, value, position_context) -> dict | list | None:
        if kind == _OBJECT:
            return self._execute_basic_fields(plan, object_type, value, None, position_context)
        items = []
        for item in value:
            completed = (
                None if item is None else self._execute_basic_fields(plan, object_type, item, None, position_context)
            )
            if completed is None:
                return None
            items.append(completed)
        return items

    def execute_field(self, parent_type, source, field_details_list, path, position_context):
        node = field_details_list[0].node
        basic = None if node.arguments else self.basic_fields.get((parent_type.name, node.name.value))
        if basic is not None:
            attribute, kind, graphql_type = basic
            value = getattr(source, attribute, None)
            if value is not None:
                try:
                    completed = self._complete_basic(
                        kind, graphql_type, field_details_list, path, value, position_context
                    )
                except Exception:
                    completed = None  # let graphql-core report it below
                if _is_coroutine(completed):
                    return self._await_completed(
                        completed, parent_type.fields[node.name.value].type, field_details_list, path
                    )
                if completed is not None:
                    return completed
        return super().execute_field(parent_type, source, field_details_list, path, position_context)

    async def _await_completed(self, completed, return_type, field_details_list, path):
        """What graphql-core's execute_field does with a completion still running (async
        resolvers below): wait for it, and report its error at this field."""
        try:
            return await completed
        except Exception as raw_error:
            self.handle_field_error(raw_error, return_type, field_details_list, path)
            return None

    def _complete_basic(self, kind, graphql_type, field_details_list, path, value, position_context):
        """The completed value (a coroutine when a resolver below is async), or None when the fast
        path does not apply (then graphql-core runs, before anything was started)."""
        if kind == _LEAF:
            return graphql_type.serialize(value)
        if kind == _LEAF_LIST:
            return _serialize_list(graphql_type.serialize, value)
        child = self._child_plan(graphql_type, field_details_list)
        if child is not None:
            return self._execute_nested(kind, child, graphql_type, value, position_context)
        if kind == _OBJECT:
            return self.collect_and_execute_subfields(graphql_type, field_details_list, path, value, position_context)
        return None  # a list of objects with resolvers below: graphql-core completes each item


class _RootShortcut(NamedTuple):
    """The one root field of an operation, and the plan of its entirely basic selection."""

    response_name: str
    field_def: GraphQLField
    field_details_list: Any
    root_type: GraphQLObjectType
    object_type: GraphQLObjectType
    nullable: bool
    plan: tuple
    direct: DirectCall | None  # the resolver called without Strawberry's wrapper, when it allows


class _ShortcutExecutor(_FastExecutor):
    strawberry_schema: strawberry.Schema | None = None  # for direct calls; None: Strawberry's wrapper always

    def root_shortcut(self) -> _RootShortcut | None:
        cache = self.cache
        if cache is None or not cache.shared:
            return None
        if cache.root_shortcut is _UNKNOWN:
            cache.root_shortcut = self._find_root_shortcut()
        return cache.root_shortcut

    def _find_root_shortcut(self) -> _RootShortcut | None:
        root_type = self.schema.get_root_type(self.operation.operation)
        if root_type is None:
            return None
        grouped_field_set, defer_usages, _ = collect_fields(
            self.schema, self.fragments, self.variable_values, root_type, self.operation
        )
        if len(grouped_field_set) != 1 or defer_usages:
            return None
        ((response_name, field_details_list),) = grouped_field_set.items()
        node = field_details_list[0].node
        field_def = root_type.fields.get(node.name.value)
        if field_def is None or field_def.resolve is None or len(field_details_list) != 1:
            return None
        object_type = _unwrap_non_null(field_def.type)
        if not isinstance(object_type, GraphQLObjectType) or object_type.is_type_of is not None:
            return None
        plan = self._child_plan(object_type, field_details_list)
        if plan is None:
            return None
        nullable = not isinstance(field_def.type, GraphQLNonNull)
        schema = self.strawberry_schema
        direct = direct_call(schema, field_def) if schema is not None else None
        return _RootShortcut(
            response_name, field_def, field_details_list, root_type, object_type, nullable, plan, direct
        )

    async def execute_root_shortcut(self, shortcut: _RootShortcut) -> dict[str, Any]:
        """What execute_operation answers for this operation, errors raised as `unwrap` raises them."""
        node = shortcut.field_details_list[0].node
        path = Path(None, shortcut.response_name, shortcut.root_type.name)
        info = self.build_resolve_info(shortcut.field_def, [node], shortcut.root_type, path)
        try:
            arguments = get_argument_values(shortcut.field_def, node, self.variable_values)
        except GraphQLError as error:
            raise OperationError(error.message) from None
        if shortcut.direct is not None:
            value = await shortcut.direct(self.root_value, info, arguments)
        else:
            resolve = cast(Callable[..., Any], shortcut.field_def.resolve)  # checked when the shortcut was found
            value = resolve(self.root_value, info, **arguments)
            if _is_coroutine(value):
                value = await value
        if value is None and shortcut.nullable:
            return {shortcut.response_name: None}
        completed: Any = (
            None
            if value is None
            else self._execute_basic_fields(shortcut.plan, shortcut.object_type, value, None, None)
        )
        if completed is None:  # graphql-core completes it and reports what is wrong
            try:
                completed = self.complete_value(
                    shortcut.field_def.type, shortcut.field_details_list, info, path, value, None
                )
                if _is_coroutine(completed):
                    completed = await completed
            except GraphQLError as error:
                self.collected_errors.add(error, None)
                completed = None
            return unwrap(cast(ExecutionResult, self.build_response({shortcut.response_name: completed})))
        return {shortcut.response_name: completed}


class _Variable(NamedTuple):
    name: str
    signature: GraphQLVariableSignature
    exact: type  # the Python type graphql-core's coercion hands back unchanged
    non_null: bool


# The built-in scalars whose coercion returns a value of this exact type as it is (an Int only
# within 32 bits); any other value (an int for an ID, a bool for an Int) goes to graphql-core.
_EXACT_INPUTS = {GraphQLID: str, GraphQLString: str, GraphQLInt: int, GraphQLBoolean: bool}


def _simple_variables(schema: GraphQLSchema, operation: OperationDefinitionNode) -> tuple[_Variable, ...] | None:
    """The operation's variables when all are built-in scalars without a default, else None."""
    variables = []
    for node in operation.variable_definitions or ():
        signature = get_variable_signature(schema, node)
        if node.default_value is not None or isinstance(signature, GraphQLError):
            return None
        exact = _EXACT_INPUTS.get(_unwrap_non_null(signature.type))
        if exact is None:
            return None
        variables.append(_Variable(signature.name, signature, exact, isinstance(signature.type, GraphQLNonNull)))
    return tuple(variables)


def _simple_variable_values(variables: tuple[_Variable, ...], inputs: dict[str, Any]) -> VariableValues | None:
    """What graphql-core's get_variable_values returns for these inputs, when each is absent,
    null or of its exact type; None for anything else (an error to report, a value to convert),
    which then goes through graphql-core."""
    sources: dict[str, VariableValueSource] = {}
    coerced: dict[str, Any] = {}
    for name, signature, exact, non_null in variables:
        value = inputs.get(name, Undefined)
        if value is Undefined or value is None:
            if non_null:
                return None
            if value is None:
                coerced[name] = None
            sources[name] = VariableValueSource(signature, value)
        elif type(value) is exact and (exact is not int or _MIN_INT <= cast(int, value) <= _MAX_INT):
            sources[name] = VariableValueSource(signature, value)
            coerced[name] = value
        else:
            return None
    return VariableValues(sources, coerced)


class _Prepared(NamedTuple):
    """What Executor.build finds in a document on every call, found once: its one operation, its
    fragments (none with variables of its own) and its simple variables."""

    operation: OperationDefinitionNode
    fragment_definitions: dict[str, FragmentDefinitionNode]
    fragments: dict[str, FragmentDetails]
    variables: tuple[_Variable, ...]


def _prepare(schema: GraphQLSchema, document: DocumentNode) -> _Prepared | None:
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    fragment_definitions = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    if len(operations) != 1 or any(d.variable_definitions for d in fragment_definitions.values()):
        return None
    variables = _simple_variables(schema, operations[0])
    if variables is None:
        return None
    fragments = {name: FragmentDetails(d, None) for name, d in fragment_definitions.items()}
    return _Prepared(operations[0], fragment_definitions, fragments, variables)


_executor_class: type[Executor] | None = None


def _executor(schema: GraphQLSchema) -> type[Executor]:
    global _executor_class
    if _executor_class is None:
        _FastExecutor.basic_fields = _basic_fields(schema)
        _ShortcutExecutor.strawberry_schema = (schema.extensions or {}).get(_STRAWBERRY_FIELD)
        _executor_class = _ShortcutExecutor
    return _executor_class


class Operation:
    """One GraphQL document, parsed and validated against the schema on first use (the shared
    operations of graphql_api/operations are all validated at start-up)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._document: DocumentNode | None = None
        self._prepared: _Prepared | None = None
        self._cache: _DocumentCache | None = None  # shared by its executions, when it has no directives

    @property
    def name(self) -> str | None:
        """The name of the document's operation (`query Saldo { … }`), None when anonymous."""
        for definition in self.document.definitions:
            if isinstance(definition, OperationDefinitionNode):
                return definition.name.value if definition.name else None
        return None

    @property
    def prepared(self) -> _Prepared | None:
        """What Executor.build would find in the document on every call, found with it; None for
        a document with directives, several operations or variables graphql-core must coerce."""
        _ = self.document  # parses, validates and prepares it on first use
        return self._prepared

    @property
    def document(self) -> DocumentNode:
        if self._document is None:
            document = parse(self.source)
            errors = validate(service_schema.schema._schema, document)
            if errors:
                raise OperationError(f"invalid operation: {errors}")
            if "@" not in self.source:
                self._cache = _DocumentCache(document)
                self._prepared = _prepare(service_schema.schema._schema, document)
            self._document = document
        return self._document


_settling: set[asyncio.Future] = set()  # executors still settling background work, kept alive


def _release(executor: Executor) -> None:
    """Clear the executor now, or once the sibling resolvers graphql-core still settles in the
    background after an early error have finished: they run the executor's own methods."""
    pending = getattr(executor, "background_futures", None)
    if not pending:
        vars(executor).clear()
        return
    settled = asyncio.gather(*pending, return_exceptions=True)
    _settling.add(settled)

    def settle(future: asyncio.Future) -> None:
        _settling.discard(future)
        vars(executor).clear()

    settled.add_done_callback(settle)


def _build(
    schema: GraphQLSchema, operation: Operation, context: Context, variables: dict[str, Any] | None
) -> Executor | list[GraphQLError]:
    """Executor.build, without finding the operation and coercing its variables anew when the
    document was prepared and the variables are simple (their values already what coercion gives)."""
    executor_class = _executor(schema)
    prepared = operation.prepared
    values = _simple_variable_values(prepared.variables, variables or {}) if prepared is not None else None
    if prepared is None or values is None:
        executor = executor_class.build(
            schema, operation.document, context_value=context, raw_variable_values=variables, is_awaitable=_is_coroutine
        )
    else:
        executor = executor_class(
            schema,
            prepared.fragment_definitions,
            prepared.fragments,
            None,
            context,
            prepared.operation,
            values,
            default_field_resolver,
            default_type_resolver,
            default_field_resolver,
            is_awaitable=_is_coroutine,
        )
    if isinstance(executor, _FastExecutor):
        executor.cache = operation._cache  # None: one for this execution only, on first use
    return executor


async def run(operation: Operation, context: Context, variables: dict[str, Any] | None = None) -> dict[str, Any]:
    schema = service_schema.schema._schema
    if not shortcuts.enabled():
        return await _run_without_shortcuts(schema, operation, context, variables)
    executor = _build(schema, operation, context, variables)
    if isinstance(executor, list):  # the variables were refused
        return unwrap(ExecutionResult(None, errors=executor))
    if isinstance(executor, _ShortcutExecutor) and (shortcut := executor.root_shortcut()) is not None:
        try:
            return await executor.execute_root_shortcut(shortcut)
        finally:
            _release(executor)
    try:
        result = executor.execute_operation()
        if _is_coroutine(result):
            result = await result
    finally:
        # An executor refers to itself (its async helpers are its own bound methods), so without
        # this it and all it holds (context, variables, results) wait for the cyclic collector,
        # whose long collections then pause requests (docs/decisoes/0003-caminho-quente-da-fachada.md).
        _release(executor)
    # No @defer/@stream in this schema: the outcome is always a plain ExecutionResult.
    return unwrap(cast(ExecutionResult, result))


async def _run_without_shortcuts(
    schema: GraphQLSchema, operation: Operation, context: Context, variables: dict[str, Any] | None
) -> dict[str, Any]:
    """graphql-core's own executor, every resolver inside Strawberry's wrapper (VITRINE_GRAPHQL_SHORTCUTS=off)."""
    outcome = execute(schema, operation.document, context_value=context, variable_values=variables)
    if isawaitable(outcome):
        outcome = await outcome
    return unwrap(outcome)


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
