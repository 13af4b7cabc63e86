"""The taskiq broker: in-process by default, a Redis list queue when VITRINE_REDIS_URL is set.

Every piece of queued work is a database row first, so a lost message is recovered by a sweep
rather than by the broker (STACK-NOTES: a list queue stops cleanly on SIGTERM)."""

from __future__ import annotations

from taskiq import InMemoryBroker, TaskiqEvents, TaskiqState
from taskiq.abc.broker import AsyncBroker

from vitrine.settings import Settings


def _make_broker(settings: Settings) -> AsyncBroker:
    if settings.redis_url:
        from taskiq_redis import ListQueueBroker

        # The worker waits on an endless BRPOP: redis-py 8 reads with a 5 s socket timeout by default,
        # which raised in every worker whose queue stayed empty for 5 s and killed its process,
        # abandoning the task it was running (a render). No read timeout on this pool; TCP
        # keepalive still notices a Redis that went away.
        return ListQueueBroker(settings.redis_url, queue_name=settings.task_queue, socket_timeout=None, socket_keepalive=True)
    return InMemoryBroker()


broker = _make_broker(Settings())


@broker.on_event(TaskiqEvents.WORKER_STARTUP)
async def _worker_startup(state: TaskiqState) -> None:
    # InMemoryBroker fires this in the web process too, where the app owns the runtime.
    if not broker.is_worker_process:
        return
    from vitrine import db
    from vitrine.runtime import Runtime

    settings = Settings()
    state.db = await db.connect(settings)
    state.runtime = Runtime.build(settings)
    await state.runtime.start()


@broker.on_event(TaskiqEvents.WORKER_SHUTDOWN)
async def _worker_shutdown(state: TaskiqState) -> None:
    if not broker.is_worker_process:
        return
    await state.runtime.stop()
    await state.db.close_connections()


def runtime():
    """The process's Runtime: the worker's own, or the web app's in the embedded default."""
    return broker.state.runtime
