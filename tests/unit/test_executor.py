"""The facade's fast GraphQL executor answers exactly as graphql-core does, nulls and errors
included (graphql_api/executor.py)."""

from __future__ import annotations

from inspect import isawaitable
from typing import Optional

import pytest
import strawberry
from graphql import execute, parse

from graphql_api.executor import _basic_fields, _FastExecutor, _ShortcutExecutor, unwrap


@strawberry.type
class Unidade:
    sigla: str


@strawberry.type
class Medida:
    nome: str
    valores: list[int]
    unidade: Unidade
    alternativa: Optional[Unidade] = None


@strawberry.type
class Item:
    nome: str
    codigo: strawberry.ID
    ativo: bool
    quantidade: int
    tags: list[str]
    apelidos: Optional[list[Optional[str]]]
    medidas: list[Medida]


ITENS: list = []


class Recusado(Exception):
    pass


@strawberry.type
class Query:
    @strawberry.field
    def itens(self) -> list[Item]:
        return ITENS

    @strawberry.field
    async def item(self, nome: str) -> Optional[Item]:
        if nome == "recusado":
            raise Recusado(nome)
        return next((item for item in ITENS if item.nome == nome), None)

    @strawberry.field
    def item_obrigatorio(self, nome: str) -> Item:
        return next((item for item in ITENS if item.nome == nome), None)  # type: ignore[return-value]


SCHEMA = strawberry.Schema(Query)
DOCUMENT = "{ itens { nome codigo ativo quantidade tags apelidos medidas { nome valores unidade { sigla } alternativa { sigla } } } }"


class _Fast(_FastExecutor):
    basic_fields = _basic_fields(SCHEMA._schema)
    static_operations: dict = {}
    _plans: dict = {}
    _subfields: dict = {}


def _both(items: list) -> tuple:
    ITENS[:] = items
    plain = execute(SCHEMA._schema, parse(DOCUMENT))
    document = parse(DOCUMENT)
    for definition in document.definitions:
        _Fast.static_operations[id(definition)] = definition
    fast = execute(SCHEMA._schema, document, executor_class=_Fast)
    return plain, fast


def _item(**fields) -> Item:
    return Item(**({"nome": "a", "codigo": strawberry.ID("x1"), "ativo": True, "quantidade": 3, "tags": [],
                    "apelidos": None, "medidas": []} | fields))


def test_lists_of_scalars_are_on_the_fast_path():
    assert _Fast.basic_fields[("Item", "tags")][1] == 3  # _LEAF_LIST
    assert ("Item", "apelidos") not in _Fast.basic_fields  # nullable items: graphql-core's job


def test_entirely_basic_sub_selections_run_nested_in_one_plan():
    _both([_item(medidas=[Medida(nome="m", valores=[1], unidade=Unidade(sigla="cm"))])])
    medida_plan = next(plan for (type_name, _), plan in _Fast._plans.items() if type_name == "Medida")
    unidade = next(entry for entry in medida_plan if entry.response_name == "unidade")
    assert [entry.response_name for entry in unidade.child] == ["sigla"]  # Unidade's own plan, run inside Medida's


@pytest.mark.parametrize("items", [
    [_item(tags=["x", "y"], medidas=[Medida(nome="m", valores=[1, 2], unidade=Unidade(sigla="cm"))])],
    [_item(medidas=[Medida(nome="m", valores=[], unidade=Unidade(sigla="cm"), alternativa=Unidade(sigla="in"))])],
    [_item(medidas=[Medida(nome="m", valores=[], unidade=Unidade(sigla=None))])],  # null deep in a nested object
    [_item(medidas=[Medida(nome="m", valores=[], unidade=None)])],  # a non-null object missing
    [_item(medidas=[None])],  # a null item in a list of non-null objects
    [_item(apelidos=["p", None])],
    [_item(tags=["x", None])],  # null in a non-null list
    [_item(medidas=[Medida(nome="m", valores=[1, "dois"], unidade=Unidade(sigla="cm"))])],  # not an int
    [_item(quantidade=2**31)],  # out of GraphQL's 32-bit Int
    [_item(quantidade=True, ativo=1, codigo=7, nome=5)],  # values serialize converts or refuses
])
def test_fast_executor_gives_graphql_cores_answer(items):
    plain, fast = _both(items)
    assert fast.data == plain.data
    assert [(e.message, e.path) for e in fast.errors or []] == [(e.message, e.path) for e in plain.errors or []]


async def test_an_operation_leaves_no_garbage_for_the_cycle_collector():
    # Under load, garbage in reference cycles piles up between collections and is then freed in
    # one pause of tens of milliseconds: every request's p99 pays for it (bench/api_overhead.py).
    import gc

    from graphql_api.core.context import Context
    from graphql_api.executor import Operation, run

    operation = Operation("query Probe($n: String!) { __type(name: $n) { name } }")
    runs = 200
    assert await run(operation, Context(runtime=None), {"n": "Query"}) == {"__type": {"name": "Query"}}
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            await run(operation, Context(runtime=None), {"n": "Query"})
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert unreachable < runs, f"{unreachable} objects in cycles after {runs} operations"


async def test_the_plan_cache_does_not_grow_with_repeated_operations():
    # The root selection is collected anew by every execution: its plan must be keyed by the
    # operation, or the cache grows (and a recycled id could pick another selection's plan).
    from graphql_api.core.context import Context
    from graphql_api.executor import Operation, _FastExecutor, run

    operation = Operation("query Probe($n: String!) { __type(name: $n) { name kind } }")
    await run(operation, Context(runtime=None), {"n": "Query"})
    size = len(_FastExecutor._plans)
    for _ in range(300):
        assert await run(operation, Context(runtime=None), {"n": "Query"}) == {"__type": {"name": "Query", "kind": "OBJECT"}}
    assert len(_FastExecutor._plans) == size


def test_schema_extensions_are_only_the_parse_and_validation_caches():
    # Schema extensions do not run for in-process operations (the facade, the portal, tasks): a
    # rule added as one would silently skip every door but /graphql. Use a permission class or a
    # field extension instead, and update this list only for a cache-like extension.
    from strawberry.extensions import ParserCache, ValidationCache

    from graphql_api.schema import schema

    kinds = {type(factory()) for factory in schema.extensions}
    assert kinds == {ParserCache, ValidationCache}


class _Shortcut(_ShortcutExecutor):
    basic_fields = _basic_fields(SCHEMA._schema)
    static_operations: dict = {}
    _plans: dict = {}
    _subfields: dict = {}
    _root_shortcuts: dict = {}


ONE_ROOT = "query Um($nome: String!) { item(nome: $nome) { nome codigo tags medidas { nome unidade { sigla } } } }"
ONE_REQUIRED = "query Um($nome: String!) { itemObrigatorio(nome: $nome) { nome quantidade } }"


async def _shortcut_and_graphql_core(source: str, variables: dict) -> tuple:
    """(the shortcut's answer or the exception it raised, graphql-core's ExecutionResult)."""
    plain = execute(SCHEMA._schema, parse(source), variable_values=variables)
    if isawaitable(plain):
        plain = await plain
    document = parse(source)
    for definition in document.definitions:
        _Shortcut.static_operations[id(definition)] = definition
    executor = _Shortcut.build(SCHEMA._schema, document, raw_variable_values=variables)
    shortcut = executor.root_shortcut()
    assert shortcut is not None, "an operation of one root field with a basic selection takes the shortcut"
    try:
        return await executor.execute_root_shortcut(shortcut), plain
    except Exception as raised:  # noqa: BLE001 - compared with graphql-core's error below
        return raised, plain


@pytest.mark.parametrize("nome", ["a", "ausente"])
async def test_one_root_field_answers_as_graphql_core(nome):
    ITENS[:] = [_item(tags=["x"], medidas=[Medida(nome="m", valores=[], unidade=Unidade(sigla="cm"))])]
    fast, plain = await _shortcut_and_graphql_core(ONE_ROOT, {"nome": nome})
    assert plain.errors is None and fast == plain.data


async def test_one_root_field_raises_what_its_resolver_raised():
    fast, plain = await _shortcut_and_graphql_core(ONE_ROOT, {"nome": "recusado"})
    assert isinstance(fast, Recusado) and isinstance(plain.errors[0].original_error, Recusado)


async def test_a_value_the_plan_cannot_complete_is_reported_by_graphql_core():
    ITENS[:] = [_item(tags=["x", None])]  # null in a non-null list: the plan gives it back
    for source, nome in ((ONE_ROOT, "a"), (ONE_REQUIRED, "ausente")):  # and a null in a non-null root field
        fast, plain = await _shortcut_and_graphql_core(source, {"nome": nome})
        with pytest.raises(type(fast)) as usual:
            unwrap(plain)  # what the usual way raises for graphql-core's answer
        assert str(fast) == str(usual.value) and "Cannot return null for non-nullable field" in str(fast)


def test_operations_of_several_root_fields_or_resolvers_below_take_the_usual_way():
    for source in ("{ itens { nome } item(nome: \"a\") { nome } }", "{ __type(name: \"Item\") { fields { name } } }"):
        document = parse(source)
        for definition in document.definitions:
            _Shortcut.static_operations[id(definition)] = definition
        assert _Shortcut.build(SCHEMA._schema, document).root_shortcut() is None
