"""The named GraphQL operations every door runs: the REST facade's handlers, the portal's forms,
the docs and any client. One module per domain; the fragments (the fields of each resource as the
contract shows it) are in fragments.py. `check()` validates them all against the schema: the app
factory calls it at start-up, so a broken document stops the process instead of one page."""

from __future__ import annotations

from graphql_api.executor import Operation
from graphql_api.operations import (
    apps,
    aviso,
    conta,
    creditos,
    geracao,
    integracao,
    oauth,
    plano,
    produto,
    recarga,
    vendedor,
)

MODULES = (aviso, conta, creditos, geracao, integracao, oauth, produto, vendedor, apps, recarga, plano)


def all_operations() -> dict[str, Operation]:
    """Every shared operation by its GraphQL name."""
    return {
        value.name or "": value for module in MODULES for value in vars(module).values() if isinstance(value, Operation)
    }


def check() -> int:
    """Parse and validate every shared operation (OperationError on the first invalid one); each
    must be named, and no two share a name. Returns how many there are."""
    names: dict[str, str] = {}
    count = 0
    for module in MODULES:
        for attribute, value in vars(module).items():
            if not isinstance(value, Operation):
                continue
            where = f"{module.__name__}.{attribute}"
            name = value.name  # parses and validates
            if not name:
                raise ValueError(f"{where}: the operation has no name")
            if names.setdefault(name, where) != where:
                raise ValueError(f"{where}: the name {name} is also {names[name]}'s")
            count += 1
    return count
