"""The taskiq broker: in-process by default, a Redis list queue when VITRINE_REDIS_URL is set.

Every piece of queued work is a database row first, so a lost message is recovered by a sweep
rather than by the broker. A list queue is used because its workers stop cleanly on SIGTERM (a
stream broker's ignored it and needed SIGKILL), see docs/desenvolvimento.md."""

from __future__ import annotations

from taskiq import InMemoryBroker, TaskiqEvents, TaskiqState
from taskiq.abc.broker import AsyncBroker

from tasks.middleware import TaskObserver
from vitrine.settings import Settings

# How long one wait for a task blocks in Redis: below redis-py's socket timeout (5 s), which an
# endless BRPOP (taskiq-redis's default) runs into on an idle queue, crashing the worker process
# (and any task it was running) every 5 s while taskiq starts another.
_WAIT_SECONDS = 2


def _make_broker(settings: Settings) -> AsyncBroker:
    if settings.redis_url:
        from redis.asyncio import Redis
        from taskiq_redis import ListQueueBroker

        class _ListQueue(ListQueueBroker):
            async def listen(self):
                while True:
                    async with Redis(connection_pool=self.connection_pool) as connection:
                        popped = await connection.brpop([self.queue_name], timeout=_WAIT_SECONDS)
                    if popped is not None:
                        yield popped[1]

        return _ListQueue(settings.redis_url, queue_name=settings.task_queue)
    return InMemoryBroker()


# Every run gets its log scope and metrics (tasks/middleware.py).
broker = _make_broker(Settings()).with_middlewares(TaskObserver())


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
    wire_task_port()
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


async def enfileirar(nome: str, *args) -> None:
    """The domain's task port (graphql_api.core.tarefas) on this broker. A name no module
    registered fails here, not silently in a queue nobody reads."""
    await registered_task(nome).kiq(*args)


def registered_task(nome: str):
    """The task `nome`, registering every task module first if this process has not (a port wired
    with `now=False`)."""
    from tasks import registry

    task = broker.find_task(nome)
    if task is None:
        registry.import_all()
        task = broker.find_task(nome)
    if task is None:
        raise LookupError(f"no task named {nome!r}: is its module in tasks/registry.py?")
    return task


def wire_task_port(*, now: bool = True) -> None:
    """Install this broker behind graphql_api.core.tarefas, with every task registered now (the
    web process and the worker, which run tasks) or at the first task queued (`now=False`: the
    command line, where most commands queue nothing and importing every task module, OpenCV and
    NumPy included, would be much of a command's time)."""
    from graphql_api.core import tarefas
    from tasks import registry

    if now:
        registry.import_all()
    tarefas.instalar(enfileirar)
