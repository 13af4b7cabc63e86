"""CPU-bound work away from the web process: the worker process pool of vitrine.infra.cpu (other
processes, lower priority, cancellation, crashes) and the password hashing threads."""

import asyncio
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from graphql_api.conferencia.analise import ImagemRecusada, medir
from graphql_api.geracao.render import Falha, RenderError, VideoError
from graphql_api.usuario import senhas
from vitrine.infra.cpu import BACKGROUND_NICENESS, ProcessPool, WorkerCrashed

# Jobs are module-level: the pool sends them to its workers by name.


def _pid_and_niceness() -> tuple[int, int]:
    return os.getpid(), os.nice(0)


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def _raise(exc: Exception) -> None:
    raise exc


@pytest.fixture
async def pool():
    pool = ProcessPool("test", 1)
    yield pool
    await pool.stop()


async def test_a_job_runs_in_another_process_at_lower_priority(pool):
    pid, niceness = await pool.run(_pid_and_niceness)
    assert pid != os.getpid()
    assert niceness == os.nice(0) + BACKGROUND_NICENESS
    # the worker stays for the next job
    assert (await pool.run(_pid_and_niceness))[0] == pid


async def test_a_dead_worker_fails_its_job_only_and_is_replaced(pool):
    first, _ = await pool.run(_pid_and_niceness)
    with pytest.raises(WorkerCrashed):
        await pool.run(_die)
    second, _ = await pool.run(_pid_and_niceness)
    assert second not in (first, os.getpid())


async def test_a_cancelled_job_stops_its_worker_at_once(pool):
    first, _ = await pool.run(_pid_and_niceness)
    job = asyncio.create_task(pool.run(_sleep, 60))
    await asyncio.sleep(0.5)
    started = time.monotonic()
    job.cancel()
    with pytest.raises(asyncio.CancelledError):
        await job
    # the next job does not wait for the 60 s sleep: its worker was ended and replaced (starting
    # the new one can take a while on a busy machine, never the whole sleep)
    second, _ = await asyncio.wait_for(pool.run(_pid_and_niceness), timeout=45)
    assert second != first and time.monotonic() - started < 45


async def test_stopping_the_pool_cancels_running_jobs_promptly(pool):
    job = asyncio.create_task(pool.run(_sleep, 60))
    await asyncio.sleep(0.5)
    started = time.monotonic()
    await asyncio.wait_for(pool.stop(), timeout=10)
    with pytest.raises(asyncio.CancelledError):
        await job
    assert time.monotonic() - started < 10
    # and a later job starts a new pool
    assert (await pool.run(_pid_and_niceness))[0] != os.getpid()


@pytest.mark.parametrize(
    "exc",
    [
        VideoError("FOTOS_INSUFICIENTES", "poucas fotos"),
        RenderError([Falha("galeria-01-principal", "foto ilegível")]),
        ImagemRecusada("FOTO_ILEGIVEL", "não é uma imagem"),
    ],
)
async def test_domain_errors_come_back_from_a_worker_with_their_fields(pool, exc):
    with pytest.raises(type(exc)) as raised:
        await pool.run(_raise, exc)
    came_back = {k: v for k, v in vars(raised.value).items() if k != "traceback"}  # pebble adds the worker's
    assert came_back == vars(exc) and str(raised.value) == str(exc)


async def test_photo_measures_run_in_the_pool(pool):
    with pytest.raises(ImagemRecusada) as raised:
        await pool.run(medir, b"not a photo")
    assert raised.value.codigo == "FOTO_NAO_E_IMAGEM"


async def test_password_hashing_does_not_queue_behind_the_default_executor():
    loop = asyncio.get_running_loop()
    busy = ThreadPoolExecutor(1)
    loop.set_default_executor(busy)
    release = threading.Event()
    blocked = loop.run_in_executor(None, release.wait)  # the one default thread is taken
    try:
        hashed = await asyncio.wait_for(senhas.hash_password("senha-bem-longa"), timeout=10)
        assert hashed.startswith("$argon2id$") and not blocked.done()
    finally:
        release.set()
        await blocked


def _unreadable() -> object:
    return _Unreadable()


class _Unreadable:
    """Pickles in the worker, cannot be rebuilt in the parent: pebble gives up on the whole pool."""

    def __reduce__(self):
        return _refuse, ()


def _refuse() -> None:
    raise TypeError("cannot be rebuilt here")


async def test_a_pool_that_broke_as_a_whole_is_rebuilt_for_the_next_job(pool):
    with pytest.raises(WorkerCrashed):
        await pool.run(_unreadable)
    assert (await pool.run(_pid_and_niceness))[0] != os.getpid()
