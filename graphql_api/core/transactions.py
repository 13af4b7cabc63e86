"""Transactions on the main connection (the call log has a connection of its own)."""

from tortoise.transactions import in_transaction

MAIN_CONNECTION = "default"


def transaction():
    """`async with transaction():` – one atomic unit of work of a request or a task."""
    return in_transaction(MAIN_CONNECTION)
