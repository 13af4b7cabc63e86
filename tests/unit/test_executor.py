"""The facade's fast GraphQL executor answers exactly as graphql-core does, nulls and errors
included (graphql_api/executor.py)."""

from __future__ import annotations

from inspect import isawaitable

import pytest
import strawberry
from graphql import execute, parse
from strawberry.permission import BasePermission, PermissionExtension

from graphql_api.executor import _basic_fields, _DocumentCache, _FastExecutor, _ShortcutExecutor, unwrap

# Tests of the shortcuts themselves: in use even in the suite's leg that turns them off.
pytestmark = pytest.mark.usefixtures("shortcuts_on")


@strawberry.type
class Unidade:
    sigla: str


@strawberry.type
class Medida:
    nome: str
    valores: list[int]
    unidade: Unidade
    alternativa: Unidade | None = None


@strawberry.type
class Item:
    nome: str
    codigo: strawberry.ID
    ativo: bool
    quantidade: int
    tags: list[str]
    apelidos: list[str | None] | None
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
    async def item(self, nome: str) -> Item | None:
        if nome == "recusado":
            raise Recusado(nome)
        return next((item for item in ITENS if item.nome == nome), None)

    @strawberry.field
    def item_obrigatorio(self, nome: str) -> Item:
        return next((item for item in ITENS if item.nome == nome), None)  # type: ignore[return-value]


SCHEMA = strawberry.Schema(Query)
DOCUMENT = "{ itens { nome codigo ativo quantidade tags apelidos medidas { nome valores unidade { sigla } alternativa { sigla } } } }"


def _isolated(base: type, schema: strawberry.Schema, **attributes) -> type:
    """A subclass of the executor `base` for this schema (the process's executor has the basic
    fields of the service's schema)."""
    return type(
        base.__name__,
        (base,),
        {"basic_fields": _basic_fields(schema._schema), "strawberry_schema": schema, **attributes},
    )


def _cached(executor, document):
    """The executor with the cache an Operation gives every execution of a document without
    directives (an executor has one for its own execution only otherwise)."""
    executor.cache = _DocumentCache(document)
    return executor


_Fast = _isolated(_FastExecutor, SCHEMA)


def _both(items: list) -> tuple:
    """(graphql-core's answer, the fast executor's, the fast executor's document cache)."""
    ITENS[:] = items
    plain = execute(SCHEMA._schema, parse(DOCUMENT))
    document = parse(DOCUMENT)
    cache = _DocumentCache(document)
    fast = execute(SCHEMA._schema, document, executor_class=type("_Cached", (_Fast,), {"cache": cache}))
    return plain, fast, cache


def _item(**fields) -> Item:
    return Item(
        **(
            {
                "nome": "a",
                "codigo": strawberry.ID("x1"),
                "ativo": True,
                "quantidade": 3,
                "tags": [],
                "apelidos": None,
                "medidas": [],
            }
            | fields
        )
    )


def test_lists_of_scalars_are_on_the_fast_path():
    assert _Fast.basic_fields[("Item", "tags")][1] == 3  # _LEAF_LIST
    assert ("Item", "apelidos") not in _Fast.basic_fields  # nullable items: graphql-core's job


def test_entirely_basic_sub_selections_run_nested_in_one_plan():
    _, _, cache = _both([_item(medidas=[Medida(nome="m", valores=[1], unidade=Unidade(sigla="cm"))])])
    medida_plan = next(plan for (type_name, _), (_, plan) in cache.plans.items() if type_name == "Medida")
    unidade = next(entry for entry in medida_plan if entry.response_name == "unidade")
    assert [entry.response_name for entry in unidade.child] == ["sigla"]  # Unidade's own plan, run inside Medida's


@pytest.mark.parametrize(
    "items",
    [
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
    ],
)
def test_fast_executor_gives_graphql_cores_answer(items):
    plain, fast, _ = _both(items)
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
    from graphql_api.executor import Operation, run

    operation = Operation("query Probe($n: String!) { __type(name: $n) { name kind } }")
    await run(operation, Context(runtime=None), {"n": "Query"})
    size = len(operation._cache.plans)
    for _ in range(300):
        assert await run(operation, Context(runtime=None), {"n": "Query"}) == {
            "__type": {"name": "Query", "kind": "OBJECT"}
        }
    assert len(operation._cache.plans) == size


def test_schema_extensions_are_only_the_parse_and_validation_caches():
    # Schema extensions do not run for in-process operations (the facade, the portal, tasks): a
    # rule added as one would silently skip every door but /graphql. Use a permission class or a
    # field extension instead, and update this list only for a cache-like extension.
    from strawberry.extensions import ParserCache, ValidationCache

    from graphql_api.schema import schema

    kinds = {type(factory()) for factory in schema.extensions}
    assert kinds == {ParserCache, ValidationCache}


_Shortcut = _isolated(_ShortcutExecutor, SCHEMA)


ONE_ROOT = "query Um($nome: String!) { item(nome: $nome) { nome codigo tags medidas { nome unidade { sigla } } } }"
ONE_REQUIRED = "query Um($nome: String!) { itemObrigatorio(nome: $nome) { nome quantidade } }"


async def _shortcut_and_graphql_core(source: str, variables: dict) -> tuple:
    """(the shortcut's answer or the exception it raised, graphql-core's ExecutionResult)."""
    plain = execute(SCHEMA._schema, parse(source), variable_values=variables)
    if isawaitable(plain):
        plain = await plain
    document = parse(source)
    executor = _cached(_Shortcut.build(SCHEMA._schema, document, raw_variable_values=variables), document)
    shortcut = executor.root_shortcut()
    assert shortcut is not None, "an operation of one root field with a basic selection takes the shortcut"
    try:
        return await executor.execute_root_shortcut(shortcut), plain
    except Exception as raised:
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
    for source in ('{ itens { nome } item(nome: "a") { nome } }', '{ __type(name: "Item") { fields { name } } }'):
        document = parse(source)
        assert _cached(_Shortcut.build(SCHEMA._schema, document), document).root_shortcut() is None


VARIABLES = "query V($id: ID!, $texto: String, $n: Int, $sim: Boolean!) { __typename }"


def _sources(values) -> dict:
    # a signature's type is built anew from the document each time: compare it by name
    return {name: (str(s.signature.type), s.value) for name, s in values.sources.items()}


@pytest.mark.parametrize(
    ("inputs", "simple"),
    [
        ({"id": "x1", "texto": "a", "n": 3, "sim": True}, True),
        ({"id": "x1", "sim": False}, True),  # nullable ones absent
        ({"id": "x1", "texto": None, "n": None, "sim": True, "outro": object()}, True),  # nulls, a name not declared
        ({"id": "", "texto": "", "n": -(2**31), "sim": True}, True),
        ({"id": 7, "sim": True}, False),  # an int for an ID: graphql-core converts it
        ({"id": "x1", "n": 2**31, "sim": True}, False),  # beyond 32 bits: refused
        ({"id": "x1", "n": True, "sim": True}, False),  # a bool is no Int
        ({"id": "x1", "n": 1.0, "sim": True}, False),
        ({"id": "x1", "sim": "sim"}, False),
        ({"id": None, "sim": True}, False),  # null in a non-null variable
        ({"sim": True}, False),  # a non-null variable absent
        ({"id": ["x1"], "sim": True}, False),
    ],
)
def test_simple_variables_take_the_values_graphql_core_would_give(inputs, simple):
    from graphql import get_variable_values

    from graphql_api.executor import _simple_variable_values, _simple_variables

    operation = parse(VARIABLES).definitions[0]
    usual = get_variable_values(SCHEMA._schema, operation.variable_definitions, inputs)
    quick = _simple_variable_values(_simple_variables(SCHEMA._schema, operation), inputs)
    if simple:
        assert quick.coerced == usual.coerced and _sources(quick) == _sources(usual)
    else:  # left to graphql-core, which converts the value or reports it
        assert quick is None


def test_variables_with_defaults_or_input_types_are_coerced_by_graphql_core():
    from graphql_api.executor import _prepare, _simple_variables

    for source in ("query V($n: Int = 3) { __typename }", "query V($n: [Int!]) { __typename }"):
        assert _simple_variables(SCHEMA._schema, parse(source).definitions[0]) is None
    assert _prepare(SCHEMA._schema, parse("query A { __typename } query B { __typename }")) is None
    assert _prepare(SCHEMA._schema, parse(VARIABLES)) is not None


class Negado(Exception):
    pass


class Permite(BasePermission):
    """Lets through the contexts that name it; refuses the others by raising, or with False."""

    def __init__(self, nome: str, levanta: bool = True) -> None:
        self.nome, self.levanta, self.message = nome, levanta, f"sem {nome}"

    def has_permission(self, source, info, **kwargs) -> bool:
        info.context["vistos"].append((self.nome, dict(kwargs)))
        if self.nome in info.context["permitidos"]:
            return True
        if self.levanta:
            raise Negado(self.nome)
        return False


@strawberry.input
class Filtro:
    nome: str


@strawberry.type
class Guardada:
    @strawberry.field(
        extensions=[
            PermissionExtension([Permite("a"), Permite("b", levanta=False)], use_directives=False),
            PermissionExtension([Permite("c")], use_directives=False),  # the last listed is checked first
        ]
    )
    async def item(self, info: strawberry.Info, nome: str, produto_id: strawberry.ID | None = None) -> Item:
        info.context["vistos"].append(("resolver", {"nome": nome, "produto_id": produto_id}))
        return _item(nome=nome, codigo=produto_id or "sem")

    @strawberry.field(extensions=[PermissionExtension([Permite("a")], use_directives=False)])
    async def filtrado(self, filtro: Filtro) -> Item:
        return _item(nome=filtro.nome)


GUARDADA = strawberry.Schema(Guardada)
GUARDADO = "query G($nome: String!, $p: ID) { item(nome: $nome, produtoId: $p) { nome codigo } }"


_Direct = _isolated(_ShortcutExecutor, GUARDADA)
_Wrapped = _isolated(_ShortcutExecutor, GUARDADA, strawberry_schema=None)  # through Strawberry's own wrapper


async def _through(executor_class, variables: dict, permitidos: set) -> tuple:
    """(answer or exception raised as (type, message), every permission check and call seen)."""
    document = parse(GUARDADO)
    context = {"permitidos": permitidos, "vistos": []}
    executor = executor_class.build(GUARDADA._schema, document, context_value=context, raw_variable_values=variables)
    _cached(executor, document)
    shortcut = executor.root_shortcut()
    assert (shortcut.direct is not None) == (executor_class is _Direct)
    try:
        answer = await executor.execute_root_shortcut(shortcut)
    except Exception as raised:
        answer = (type(raised), str(raised))
    return answer, context["vistos"]


@pytest.mark.parametrize(
    ("variables", "permitidos"),
    [
        ({"nome": "x", "p": "prd_1"}, {"a", "b", "c"}),
        ({"nome": "x"}, {"a", "b", "c"}),  # an optional argument absent: the resolver's default
        ({"nome": "x", "p": None}, {"a", "b", "c"}),
        ({"nome": "x"}, {"a", "b"}),  # c refuses first
        ({"nome": "x"}, {"c"}),  # a refuses, raising
        ({"nome": "x"}, {"a", "c"}),  # b refuses with False: its on_unauthorized
    ],
)
async def test_a_direct_call_does_what_strawberrys_wrapper_does(variables, permitidos):
    assert await _through(_Direct, variables, permitidos) == await _through(_Wrapped, variables, permitidos)


def test_fields_whose_arguments_strawberry_converts_keep_its_wrapper():
    from graphql_api.direct_call import direct_call
    from graphql_api.schema import schema

    assert direct_call(GUARDADA, GUARDADA._schema.query_type.fields["filtrado"]) is None  # an input type
    assert direct_call(GUARDADA, GUARDADA._schema.query_type.fields["item"]) is not None
    assert direct_call(schema, schema._schema.query_type.fields["geracao"]) is not None  # the facade's reads by id


def test_a_read_by_id_is_prepared_and_a_document_with_directives_is_not():
    # The facade's reads by id build their executor without coercing their variables again.
    from graphql_api.executor import Operation
    from graphql_api.operations import geracao

    assert [v.name for v in geracao.OBTER_GERACAO.prepared.variables] == ["id"]
    assert Operation("query D($a: Boolean!) { __typename @include(if: $a) }").prepared is None


@pytest.fixture
def service_schema_is_this_one(monkeypatch):
    """`run` executes against this module's schema instead of the service's."""
    import graphql_api.executor as executor
    import graphql_api.schema as service

    monkeypatch.setattr(service, "schema", SCHEMA)
    monkeypatch.setattr(executor, "_executor_class", None)  # built anew for SCHEMA, restored after
    monkeypatch.setattr(_FastExecutor, "basic_fields", _FastExecutor.basic_fields)
    monkeypatch.setattr(_ShortcutExecutor, "strawberry_schema", _ShortcutExecutor.strawberry_schema)


async def test_a_selection_never_gets_the_plan_of_a_selection_that_died(service_schema_is_this_one):
    # The portal once showed, for a whole process's life, one page's `etapas` with the fields of
    # another page's: a plan cached under the address of a selection collected for one execution
    # only (a document with @include) was found again by a new selection at the same address.
    import gc

    from graphql_api.core.context import Context
    from graphql_api.executor import Operation, run

    ITENS[:] = [_item(medidas=[Medida(nome="m", valores=[1, 2], unidade=Unidade(sigla="cm"))])]
    with_directive = Operation("query A($t: Boolean!) { itens { nome @include(if: $t) medidas { nome } } }")
    for attempt in range(300):
        await run(with_directive, Context(runtime=None), {"t": True})
        gc.collect(0)  # frees the selection collected for that execution, and its address
        fresh = Operation(f"query B{attempt} {{ itens {{ medidas {{ nome valores }} }} }}")
        answer = await run(fresh, Context(runtime=None))
        assert answer == {"itens": [{"medidas": [{"nome": "m", "valores": [1, 2]}]}]}, f"attempt {attempt}"


async def test_what_a_document_caches_is_freed_with_its_operation(service_schema_is_this_one):
    # No process-wide table: documents made on the fly (a test, a tool) cannot grow the process.
    import gc
    import weakref

    from graphql_api.core.context import Context
    from graphql_api.executor import Operation, run

    ITENS[:] = [_item(medidas=[Medida(nome="m", valores=[1], unidade=Unidade(sigla="cm"))])]
    documents = []
    for source in ("query S { itens { medidas { nome } } }", "query D($t: Boolean!) { itens { nome @skip(if: $t) } }"):
        operation = Operation(source)
        await run(operation, Context(runtime=None), {"t": False})
        documents.append(weakref.ref(operation.document.definitions[0]))
        del operation
    gc.collect()
    assert [document() for document in documents] == [None, None]


async def test_with_the_shortcuts_off_graphql_core_executes_the_document(service_schema_is_this_one, monkeypatch):
    import graphql_api.executor as executor
    from graphql_api.core import shortcuts
    from graphql_api.core.context import Context

    ITENS[:] = [_item(nome="a", medidas=[Medida(nome="m", valores=[1], unidade=Unidade(sigla="cm"))])]
    monkeypatch.setattr(shortcuts, "_enabled", False)
    monkeypatch.setattr(executor, "_build", None)  # no executor of ours may be built
    answer = await executor.run(executor.Operation(ONE_ROOT), Context(runtime=None), {"nome": "a"})
    assert answer == {
        "item": {"nome": "a", "codigo": "x1", "tags": [], "medidas": [{"nome": "m", "unidade": {"sigla": "cm"}}]}
    }
    with pytest.raises(Recusado):
        await executor.run(executor.Operation(ONE_ROOT), Context(runtime=None), {"nome": "recusado"})
