"""The Redis task broker as a worker uses it: waiting on an empty queue for longer than redis-py's
default read timeout (5 s) must not end the wait with an error (it killed the worker process)."""

import asyncio
import secrets

import pytest
from redis._defaults import DEFAULT_SOCKET_TIMEOUT
from redis.asyncio import Redis

from tasks.broker import _make_broker
from tests.harness import BACKEND, REDIS_URL
from vitrine.settings import Settings


async def test_an_idle_worker_keeps_waiting_past_the_socket_timeout_then_gets_the_message():
    if BACKEND != "postgres":
        pytest.skip("needs Redis: runs on the PostgreSQL + Redis leg")
    settings = Settings(redis_url=REDIS_URL, redis_namespace=f"test-idle-{secrets.token_hex(4)}")
    queue = settings.task_queue
    broker = _make_broker(settings)
    redis = Redis.from_url(REDIS_URL)
    messages = broker.listen()
    waiting = asyncio.ensure_future(anext(messages))
    try:
        await asyncio.sleep(DEFAULT_SOCKET_TIMEOUT + 1.5)
        assert not waiting.done(), f"the wait ended: {waiting.exception()!r}"
        await redis.lpush(queue, b"mensagem")
        assert await asyncio.wait_for(waiting, timeout=5) == b"mensagem"
    finally:
        waiting.cancel()
        await messages.aclose()
        await broker.connection_pool.disconnect()
        await redis.delete(queue)
        await redis.aclose()
