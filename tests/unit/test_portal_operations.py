"""Every GraphQL operation of the portal parses and validates against the schema (a typo in a
document would otherwise surface only when its page is opened)."""

from graphql_api.executor import Operation
from portal.app import ROUTE_MODULES


def test_every_portal_operation_is_valid():
    operations = [
        (module.__name__, name, value)
        for module in ROUTE_MODULES
        for name, value in vars(module).items()
        if isinstance(value, Operation)
    ]
    assert len(operations) >= 15
    for module, name, operation in operations:
        assert operation.document is not None, f"{module}.{name}"
