"""The fast executor answers every operation exactly as graphql-core's own executor does, in one
long-lived process with the garbage collector churning: the catalogue's queries (the shared ones
of graphql_api/operations and the portal's) and selections generated from the schema, many times,
interleaved, each once with the shortcuts and once without (VITRINE_GRAPHQL_SHORTCUTS=off).

The fast executor caches what it finds in a document; a cache keyed by the address of an object
that died once handed a new selection the plan of another, and a portal page showed another
page's fields. Churn (collections, garbage, documents made and dropped) is what frees and reuses
addresses, so it runs between every pair of executions."""

from __future__ import annotations

import gc
import json
import random
from types import SimpleNamespace
from typing import Any

import pytest
from graphql import (
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    NonNullTypeNode,
    OperationDefinitionNode,
    is_leaf_type,
)

from graphql_api import operations
from graphql_api.core import shortcuts
from graphql_api.core.context import Context
from graphql_api.core.principal import ALL_SCOPES, ROLE_SCOPES, Ambiente, CredentialKind, Papel, Principal
from graphql_api.executor import Operation, run
from graphql_api.operations.integracao import INTEGRACAO_STATUS
from graphql_api.schema import schema
from portal.app import ROUTE_MODULES
from tests.factories import eventually

pytestmark = pytest.mark.usefixtures("shortcuts_on")

ROUNDS = 3
FAMILIES_PER_ROUND = 48
FAMILY = 4  # new selections in a family
CHUNK = 6  # groups of executions
_garbage: list = []


def _churn(rng: random.Random) -> None:
    """Free and reuse addresses: drop the garbage of the last turn, make some of every common
    shape (the executor's own objects are dicts, tuples and lists), collect the young generation
    and now and then all of them."""
    _garbage.clear()
    if rng.random() < 0.2:
        _garbage.extend(({"k": i}, (i, i), [i]) for i in range(rng.randint(1, 100)))
    gc.collect(2 if rng.random() < 0.05 else 0)


async def _outcome(operation: Operation, context: Context, variables: dict[str, Any], *, fast: bool) -> tuple:
    """("ok", data) or ("error", the exception's class, its catalog type, its message). Signed
    links keep only their path: an S3 link carries the second it was signed at."""
    shortcuts._enabled = fast  # the shortcuts_on fixture restores it
    try:
        return ("ok", _unsigned(await run(operation, context, variables)))
    except Exception as error:  # compared between the two ways
        return ("error", type(error).__name__, getattr(error, "type", None), str(error))
    finally:
        shortcuts._enabled = True


def _unsigned(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _unsigned(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_unsigned(item) for item in value]
    if isinstance(value, str) and value.startswith(("http://", "https://")):
        return value.split("?", 1)[0]
    return value


def _catalogue() -> dict[str, Operation]:
    """Every query the doors run (mutations change what the second run would read)."""
    found = {f"operations.{name}": operation for name, operation in operations.all_operations().items()}
    for module in ROUTE_MODULES:
        for name, value in vars(module).items():
            if isinstance(value, Operation):
                found[f"{module.__name__}.{name}"] = value
    return {
        name: operation
        for name, operation in found.items()
        if next(d for d in operation.document.definitions if isinstance(d, OperationDefinitionNode)).operation.value
        == "query"
    }


def _variables(operation: Operation, ids: dict[str, str], tecnico: bool) -> dict[str, Any]:
    """Values for the operation's variables: the ids of the scenario's records by name (an `id`
    by the root field it selects), nulls for the optional ones."""
    definition = next(d for d in operation.document.definitions if isinstance(d, OperationDefinitionNode))
    root = definition.selection_set.selections[0].name.value  # type: ignore[attr-defined]
    values: dict[str, Any] = {}
    for variable in definition.variable_definitions or ():
        name = variable.variable.name.value
        if name == "id":
            values[name] = ids.get(root, "xyz_naoexiste000000000")
        elif name == "tecnico":
            values[name] = tecnico
        elif name in ids:
            values[name] = ids[name]
        elif isinstance(variable.type, NonNullTypeNode):
            values[name] = "xyz_naoexiste000000000"
        else:
            values[name] = None
    return values


def _selection(rng: random.Random, object_type: GraphQLObjectType, depth: int, directives: float) -> str:
    """A random sub-selection of the type's fields without required arguments: some leaves, some
    objects (down to `depth`), with aliases, inline fragments and, at the rate `directives`,
    @include/@skip (which make the executor collect the document anew on every execution)."""
    fields = [
        (name, field)
        for name, field in object_type.fields.items()
        if not any(isinstance(arg.type, GraphQLNonNull) for arg in field.args.values())
    ]
    rng.shuffle(fields)
    chosen = []
    for name, field in fields[: rng.randint(1, max(1, len(fields)))]:
        named = field.type
        while isinstance(named, (GraphQLNonNull, GraphQLList)):
            named = named.of_type
        if is_leaf_type(named):
            head, body = name, ""
        elif isinstance(named, GraphQLObjectType) and depth > 0:
            head, body = name, f"{{ {_selection(rng, named, depth - 1, directives)} }}"
        else:
            continue
        roll = rng.random()
        if roll < directives:
            head += rng.choice((" @include(if: $t)", " @skip(if: $t)"))
        elif roll < directives + 0.1:
            head = f"a{rng.randint(0, 9)}: {head}"  # an alias
        text = f"{head} {body}"
        chosen.append(f"... on {object_type.name} {{ {text} }}" if rng.random() < 0.05 else text)
    return " ".join(chosen) or "__typename"


def _roots(ids: dict[str, str]) -> list[tuple[str, str, GraphQLObjectType]]:
    """The root fields a generated query can select: (name, arguments, object type), those with
    required arguments only when the scenario has a record to read."""
    query_type = schema._schema.query_type
    assert query_type is not None
    roots = []
    for name, field in query_type.fields.items():
        named = field.type
        while isinstance(named, (GraphQLNonNull, GraphQLList)):
            named = named.of_type
        required = [arg for arg, value in field.args.items() if isinstance(value.type, GraphQLNonNull)]
        if not isinstance(named, GraphQLObjectType) or any(arg not in ("id", "contaId", "codigo") for arg in required):
            continue
        if "id" in required and name not in ids:
            continue  # nothing to read: the whole answer would be NOT_FOUND
        arguments = {"id": ids.get(name), "contaId": ids["contaId"], "codigo": ids["codigo"]}
        given = ", ".join(f"{arg}: {json.dumps(arguments[arg])}" for arg in required)
        roots.append((name, f"({given})" if given else "", named))
    return roots


def _generated(rng: random.Random, roots: list, directives: float) -> Operation:
    """A query of these root fields, each with a random selection."""
    selection = " ".join(
        f"{name}{arguments} {{ {_selection(rng, named, 3, directives)} }}" for name, arguments, named in roots
    )
    return Operation(("query Gerada($t: Boolean!) { " if "$t" in selection else "query Gerada { ") + selection + " }")


def _family(rng: random.Random, roots: list) -> list[Operation]:
    """Selections of the same root fields: one with directives (collected anew by each execution,
    then dropped: the addresses it frees are soon another selection's), run before each of the
    others, which are new to the executor."""
    chosen = rng.sample(roots, rng.randint(1, 2))
    with_directives = _generated(rng, chosen, 0.4)
    family = []
    for _ in range(FAMILY):
        family += [with_directives, _generated(rng, chosen, 0.05)]
    return family


async def test_the_fast_executor_answers_as_graphql_core_under_churn(factory, integrator, monkeypatch):
    import time

    from vitrine.infra import storage

    # a signed link's expiry comes from the clock: both runs of an operation read the same one
    now = time.time()
    monkeypatch.setattr(storage, "time", SimpleNamespace(time=lambda: now))
    # given a scenario with a record of each kind the catalogue reads by id
    conta = await factory.conta(integrator)
    produto = await factory.conferido(integrator, await factory.produto(integrator, conta))
    geracao = await factory.geracao(integrator, conta_id=conta["id"])
    await factory.evento(integrator, conta_id=conta["id"])
    ids = {"conta": conta["id"], "contaId": conta["id"], "codigo": produto["codigo"], "produtoId": produto["id"]}
    ids["geracao"] = geracao.id
    runtime = factory.runtime
    principals = {
        "api": Principal(CredentialKind.API_KEY, Ambiente.TESTE, ALL_SCOPES, integrador_id=integrator.id),
        "portal": Principal(
            CredentialKind.PORTAL,
            Ambiente.TESTE,
            ROLE_SCOPES[Papel.DONO],
            integrador_id=integrator.id,
            reautenticado=True,
        ),
    }

    async def settled() -> None:  # background work done: nothing the two runs read changes between them
        status = await run(INTEGRACAO_STATUS, Context(runtime=runtime, principal=principals["portal"]))
        assert "SUBCONTA_CRIADA" not in status["integracaoStatus"]["producao"]["motivo"]

    await eventually(settled)
    catalogue = _catalogue()
    assert len(catalogue) >= 50
    roots = _roots(ids)
    rng = random.Random(20261128)
    # half the generated documents are run every round (their caches shared), half are new each round
    persistent = [_family(rng, roots) for _ in range(FAMILIES_PER_ROUND // 2)]
    answered = compared = 0

    # when every operation runs, in groups in a random order, each time both ways
    for _ in range(ROUNDS):
        groups = [
            [(name, operation, who, _variables(operation, ids, tecnico))]
            for name, operation in catalogue.items()
            for who in principals
            for tecnico in (False, True)
            if not tecnico or "$tecnico" in operation.source
        ]
        for family in persistent + [_family(rng, roots) for _ in range(FAMILIES_PER_ROUND - len(persistent))]:
            who, t = rng.choice(list(principals)), rng.random() < 0.75
            groups.append([(g.source, g, who, {"t": t} if "$t" in g.source else {}) for g in family])
        rng.shuffle(groups)
        # A few executions one way, then the same the other way: the fast executor's executions
        # follow one another, as a busy process's do, and each meets what the ones before left.
        for start in range(0, len(groups), CHUNK):
            chunk = [execution for group in groups[start : start + CHUNK] for execution in group]
            firsts = {id(group[0]) for group in groups[start : start + CHUNK]}
            fast = []
            for execution in chunk:
                _name, operation, who, variables = execution
                if id(execution) in firsts:
                    _churn(rng)
                else:  # within a family only a collection: what the one before freed is still at hand
                    gc.collect(0)
                context = Context(runtime=runtime, principal=principals[who])
                fast.append(await _outcome(operation, context, variables, fast=True))
            for (name, operation, who, variables), answer in zip(chunk, fast, strict=True):
                _churn(rng)
                context = Context(runtime=runtime, principal=principals[who])
                usual = await _outcome(operation, context, variables, fast=False)
                # then
                assert answer == usual, f"{name} as {who} with {variables}"
                compared += 1
                answered += answer[0] == "ok"
    assert answered > compared // 2, f"only {answered} of {compared} executions answered data"
