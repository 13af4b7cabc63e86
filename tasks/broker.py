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

        return ListQueueBroker(settings.redis_url, queue_name=settings.task_queue)
    return InMemoryBroker()


broker = _make_broker(Settings())


@broker.on_event(TaskiqEvents.WORKER_STARTUP)
async def _worker_startup(state: TaskiqState) -> None:
    # InMemoryBroker fires this in the web process too, where the app owns the runtime.
    if not broker.is_worker_process:
        return
    from vitrine import db
    from vitrine.infra.process import die_with_multiprocessing_parent
    from vitrine.runtime import Runtime

    # An orphan of a killed `vitrine worker` would go on taking tasks with nobody to stop it.
    die_with_multiprocessing_parent()

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
