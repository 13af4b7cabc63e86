"""End-to-end tests: the real service as a subprocess (`python -m vitrine serve`), driven by
Debian's Chromium through Playwright. The back end is the one the test harness picked
(tests/harness.py): SQLite in the service's own data directory, or the session's PostgreSQL
database + Redis, whose `vitrine worker` the harness already runs."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.harness import BACKEND, migrated_sqlite_database
from tests.processes import start_vitrine

pytest_plugins = ["tests.harness"]

ROOT = Path(__file__).resolve().parent.parent
# One folder per back end: the test command runs both legs at once.
ARTIFACTS = ROOT / "test-artifacts" / "e2e" / BACKEND

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright launches this once per session: Debian's Chromium, never a download."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True, "args": CHROMIUM_ARGS}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def service() -> str:
    """The service on a free port; its base URL (the only origin the browser may talk to)."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    if os.environ.get("VITRINE_TEST_BACKEND") == "postgres":
        # The session's `vitrine worker` renders into its data directory (media, the key that
        # signs media links): the service must serve from the same one.
        data_dir = Path(os.environ["VITRINE_DATA_DIR"])
    else:
        # a copy of the run's migrated database: the service starts without migrating
        data_dir = migrated_sqlite_database(Path(tempfile.mkdtemp(prefix="vitrine-e2e-")))
    env = os.environ | {
        "VITRINE_DATA_DIR": str(data_dir),
        "VITRINE_PORT": str(port),
        "VITRINE_PUBLIC_URL": base,
    }
    log_path = data_dir / "serve.log"
    log = open(log_path, "w")
    process = start_vitrine("serve", env=env, log=log)
    deadline = time.time() + 90  # a loaded shared machine starts it slowly
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"vitrine serve exited: {log_path.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/entrar", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if time.time() > deadline:
            raise RuntimeError(f"vitrine serve did not answer in 90 s: {log_path.read_text()}")
        time.sleep(0.2)
    yield base
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
    log.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@contextmanager
def app_in_thread(app, *, tls: bool = True):
    """Serve an aiohttp application on its own event loop in a thread, since Playwright's sync API
    owns this one: over HTTPS (the test CA's localhost certificate) for the service to call, or
    plain HTTP on 127.0.0.1 for the browser to open. Yields its port."""
    from aiohttp import web

    from tests.harness import SERVER_CERT, SERVER_KEY  # imported here: the plugin is loaded by then
    from tests.tls import server_context

    loop = asyncio.new_event_loop()
    started = threading.Event()
    state: dict = {}

    async def start() -> None:
        runner = web.AppRunner(app)
        await runner.setup()
        ssl_context = server_context(SERVER_CERT, SERVER_KEY) if tls else None
        site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=ssl_context)
        await site.start()
        state["runner"], state["port"] = runner, site._server.sockets[0].getsockname()[1]

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, name="test-server", daemon=True)
    thread.start()
    assert started.wait(10), "the test's server did not start"
    try:
        yield state["port"]
    finally:
        asyncio.run_coroutine_threadsafe(state["runner"].cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


@pytest.fixture
def receptor():
    """A real HTTPS notice receiver (tests/receptor.py: verifies with `standardwebhooks`) at
    `receptor.url`."""
    from tests.receptor import Receptor

    receptor = Receptor()
    with app_in_thread(receptor.app()) as port:
        receptor.url = f"https://localhost:{port}/avisos"
        yield receptor


@pytest.fixture
def photo_site():
    """A real HTTPS photo host (tests/photos.py) the service fetches the ficha's photos from."""
    from tests.factories import PhotoSite
    from tests.photos import PhotoHost

    host = PhotoHost()
    with app_in_thread(host.app) as port:
        yield PhotoSite(f"https://localhost:{port}", host)
