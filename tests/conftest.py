import pytest

from tests.receptor import Receptor

# The harness (back end, SMTP server, worker, app fixtures) is a plugin shared with e2e/.
pytest_plugins = ["tests.harness", "tests.factories"]


@pytest.fixture
def shortcuts_on(monkeypatch):
    """The hot path's shortcuts in use for this test even in a run with VITRINE_GRAPHQL_SHORTCUTS=off
    (a test of a shortcut itself): an app the test builds does not turn them off."""
    from graphql_api.core import shortcuts

    monkeypatch.setattr(shortcuts, "_enabled", True)
    monkeypatch.setattr(shortcuts, "configure", lambda enabled: None)


@pytest.fixture
async def receptor(https_server):
    """A real HTTPS notice receiver at `receptor.url`, verifying with `standardwebhooks`."""
    receptor = Receptor()
    receptor.url = await https_server(receptor.app()) + "/avisos"
    return receptor


@pytest.fixture
async def receptor_local(aiohttp_server):
    """A notice receiver on plain http://127.0.0.1 (a developer's machine, where `vitrine-cli
    listen` forwards), verifying with `standardwebhooks` once its secret is appended."""
    receptor = Receptor()
    server = await aiohttp_server(receptor.app())
    receptor.url = str(server.make_url("/avisos"))
    return receptor


@pytest.fixture
async def vitrine_cli(client):
    """Run the integrators' `vitrine-cli` (clients/python) against the test app, in its own process;
    every process still running when the test ends is killed."""
    from tests.cli import VitrineCli

    cli = VitrineCli(str(client.make_url("/v1")))
    yield cli
    await cli.stop_all()
