import pytest

from tests.receptor import Receptor

# The harness (back end, SMTP server, worker, app fixtures) is a plugin shared with e2e/.
pytest_plugins = ["tests.harness", "tests.factories"]


@pytest.fixture
async def receptor(https_server):
    """A real HTTPS notice receiver at `receptor.url`, verifying with `standardwebhooks`."""
    receptor = Receptor()
    receptor.url = await https_server(receptor.app()) + "/avisos"
    return receptor
