"""How the tests start the service's own commands as subprocesses (`vitrine worker`, `vitrine
serve`): tied to the test run, so a run stopped midway (timeout, Ctrl-C, SIGKILL of pytest)
leaves no worker behind to take the next run's tasks. `vitrine worker`'s children tie themselves
to it in turn (tasks/broker.py). Importing this module has no side effects."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import IO

from vitrine.infra.process import tied_to_this_process

ROOT = Path(__file__).resolve().parent.parent


def start_vitrine(*args: str, env: dict[str, str], log: IO) -> subprocess.Popen:
    """`python -m vitrine <args>` in its own process group (to signal it and its children at
    once), killed by the kernel when this process ends. Call from the main thread: the kernel
    ties the child to the thread that started it."""
    return subprocess.Popen(
        [sys.executable, "-m", "vitrine", *args],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=tied_to_this_process(),
    )
