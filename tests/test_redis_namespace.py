"""Two deployments on one Redis, told apart by VITRINE_REDIS_NAMESPACE: neither sees the other's
invalidations, rate-limit counters or tasks. Built as production builds them (Runtime.build, the
broker factory, the session's real `vitrine worker`)."""

from __future__ import annotations

import asyncio
import json
import secrets
import time

import pytest
from redis.asyncio import Redis

from tests.harness import BACKEND, REDIS_NAMESPACE, REDIS_URL
from vitrine.runtime import Runtime
from vitrine.settings import Settings

pytestmark = pytest.mark.skipif(
    BACKEND != "postgres",
    reason="namespaces keep deployments apart on a shared Redis: runs on the PostgreSQL + Redis leg "
    "(the embedded default has no Redis, so nothing is shared between processes)",
)


def deployment(namespace: str) -> Settings:
    return Settings(redis_url=REDIS_URL, redis_namespace=namespace)


@pytest.fixture
async def runtimes():
    """Runtimes by namespace: two processes of deployment `a` and one of deployment `b`."""
    tag = secrets.token_hex(3)
    built = {
        "a1": Runtime.build(deployment(f"a-{tag}")),
        "a2": Runtime.build(deployment(f"a-{tag}")),
        "b": Runtime.build(deployment(f"b-{tag}")),
    }
    yield built
    for runtime in built.values():
        await runtime.bus.stop()
        await runtime.limiter.close()
        await runtime.outbound.close()
        await runtime.redis.aclose()


async def test_invalidations_reach_only_the_same_namespace(runtimes):
    heard = {name: [] for name in runtimes}
    for name, runtime in runtimes.items():
        runtime.bus.subscribe(heard[name].append)
        await runtime.bus.start()
    await asyncio.sleep(0.2)  # subscriptions in place

    await runtimes["a1"].bus.publish("chaves")
    deadline = time.monotonic() + 5
    while not heard["a2"] and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert heard["a2"] == ["chaves"]  # the other process of the same deployment heard it
    await asyncio.sleep(0.3)  # as long again for the other deployment, had it been told
    assert heard["b"] == []

    await runtimes["b"].bus.publish("outra")
    deadline = time.monotonic() + 5
    while "outra" not in heard["b"] and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    assert "outra" in heard["b"]
    assert "outra" not in heard["a1"] + heard["a2"]


async def test_rate_limit_counters_are_shared_only_within_a_namespace(runtimes):
    now = time.time()
    bucket = [("chave:key_1", 100)]
    for _ in range(5):
        await runtimes["a1"].limiter.hit(bucket, now)
    await runtimes["a1"].limiter.sync()

    remaining = {}
    for name in ("a2", "b"):
        limiter = runtimes[name].limiter
        await limiter.hit(bucket, now)
        await limiter.sync()  # learns the other processes' total in its namespace
        remaining[name] = (await limiter.hit(bucket, now)).remaining
    assert remaining["a2"] == 100 - 2 - 5  # counts a1's five hits
    assert remaining["b"] == 100 - 2  # its own two only


async def test_a_worker_takes_tasks_only_from_its_own_namespace(worker_process):
    """The session's worker reads the session's namespace; a message queued by a deployment with
    another namespace stays in that deployment's queue."""
    from taskiq.message import BrokerMessage

    from tasks.broker import _make_broker

    ours, theirs = Settings(), deployment(f"outra-{secrets.token_hex(3)}")
    assert ours.redis_namespace == REDIS_NAMESPACE
    # A task no worker knows: a worker that takes it logs and drops it, nothing else happens.
    task_id, unknown = secrets.token_hex(8), "tarefa_de_teste_inexistente"
    message = json.dumps(
        {"task_id": task_id, "task_name": unknown, "labels": {}, "labels_types": {}, "args": [], "kwargs": {}}
    ).encode()
    redis = Redis.from_url(REDIS_URL)
    brokers = [_make_broker(ours), _make_broker(theirs)]
    try:
        for broker in brokers:
            await broker.startup()
            await broker.kick(BrokerMessage(task_id=task_id, task_name=unknown, message=message, labels={}))
        deadline = time.monotonic() + 10
        while await redis.llen(ours.task_queue) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert await redis.llen(ours.task_queue) == 0  # the session's worker took its own
        assert f'task "{unknown}" is not found' in worker_process.log.read_text()
        await asyncio.sleep(1)
        assert await redis.llen(theirs.task_queue) == 1  # and left the other deployment's alone
    finally:
        for broker in brokers:
            await broker.shutdown()
        await redis.delete(theirs.task_queue)
        await redis.aclose()
