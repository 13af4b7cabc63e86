"""Subprocesses die with the run that started them: a test run killed with SIGKILL leaves no
`vitrine worker` (nor any of its worker processes) behind to take a later run's tasks."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from redis import Redis

from tests.harness import REDIS_URL
from tests.processes import ROOT
from vitrine.infra.process import tied_to_this_process

# Starts a worker exactly as the harness does, prints its pid, then waits to be killed.
PARENT = """
import os, sys, time
from tests.processes import start_vitrine
worker = start_vitrine("worker", "--workers", "2", env=os.environ.copy(), log=open(sys.argv[1], "w"))
print(worker.pid, flush=True)
time.sleep(600)
"""


def redis_reachable() -> bool:
    url = urlparse(REDIS_URL)
    try:
        socket.create_connection((url.hostname, url.port or 6379), timeout=1).close()
        return True
    except OSError:
        return False


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                # /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie is dead, only not yet reaped


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
@pytest.mark.skipif(not redis_reachable(), reason=f"`vitrine worker` needs Redis, and none answers at {REDIS_URL}")
def test_a_worker_and_its_processes_die_when_the_test_run_is_killed(migrated_data_dir):
    data_dir = migrated_data_dir
    namespace = f"test-orphans-{secrets.token_hex(3)}"
    # Its own SQLite database and Redis namespace: the worker takes nothing of this session's.
    env = os.environ | {
        "VITRINE_DATA_DIR": str(data_dir),
        "VITRINE_DATABASE_URL": "",
        "VITRINE_REDIS_URL": REDIS_URL,
        "VITRINE_REDIS_NAMESPACE": namespace,
    }
    log = data_dir / "worker.log"
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(log)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=tied_to_this_process(),
    )
    pids: list[int] = []
    try:
        worker = int(parent.stdout.readline())
        pids.append(worker)
        deadline = time.monotonic() + 60
        while log.read_text().count("Listening started") < 2:
            assert parent.poll() is None and alive(worker), log.read_text()
            assert time.monotonic() < deadline, f"the worker did not start in 60 s: {log.read_text()}"
            time.sleep(0.2)
        processes = children_of(worker)
        assert len(processes) >= 2, processes  # taskiq's two worker processes
        pids += processes

        parent.kill()  # SIGKILL: no handler, no clean-up runs in the parent
        parent.wait()
        # The kernel kills them at once. Kept short on purpose: an idle taskiq worker process may
        # also end by itself some seconds later (a Redis read timeout), which must not pass for this.
        deadline = time.monotonic() + 2
        while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in pids if alive(pid)] == []
    finally:
        for pid in pids:  # whatever survived a failure must not outlive the test
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        with Redis.from_url(REDIS_URL) as redis:  # the worker's periodic-job locks
            for key in redis.scan_iter(match=f"{namespace}:*"):
                redis.delete(key)
