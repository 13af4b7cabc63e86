"""Periodic jobs in worker processes (Redis mode): every worker runs the loop, a Redis lock makes
each job run once per period."""

from taskiq import TaskiqEvents, TaskiqState

from tasks import maintenance
from tasks.broker import broker
from tasks.scheduler import PeriodicJobs


@broker.on_event(TaskiqEvents.WORKER_STARTUP)
async def _start_periodic(state: TaskiqState) -> None:
    if broker.is_worker_process:
        settings = state.runtime.settings
        state.periodic = PeriodicJobs(
            maintenance.periodic(settings), state.runtime.redis, key_prefix=settings.redis_key("agenda")
        )
        state.periodic.start()


@broker.on_event(TaskiqEvents.WORKER_SHUTDOWN)
async def _stop_periodic(state: TaskiqState) -> None:
    if broker.is_worker_process and getattr(state, "periodic", None) is not None:
        await state.periodic.stop()
