"""The official Python client (clients/python) against the running service of the `client`
fixture: a real aiohttp server on a local port. The sync client blocks, so tests call it from a
thread (`asyncio.to_thread`) while the server keeps running on the test's event loop."""

import pytest


@pytest.fixture
def servico(client) -> str:
    """The service's address, as an integrator would configure it (VITRINE_URL)."""
    return str(client.make_url("")).rstrip("/")
