"""Periodic jobs in worker processes (Redis mode): every worker runs the loop, a Redis lock makes
each job run once per period."""

from taskiq import TaskiqEvents, TaskiqState

from tasks import maintenance
from tasks.avisos import Varredura
from tasks.broker import broker
from tasks.scheduler import PeriodicJobs


@broker.on_event(TaskiqEvents.WORKER_STARTUP)
async def _start_periodic(state: TaskiqState) -> None:
    if broker.is_worker_process:
        state.periodic = PeriodicJobs(maintenance.PERIODIC, state.runtime.redis, key_prefix=state.runtime.settings.redis_key("agenda"))
        state.periodic.start()
        state.varredura = Varredura(state.runtime, state.runtime.settings.aviso_varredura_segundos)
        state.varredura.start()


@broker.on_event(TaskiqEvents.WORKER_SHUTDOWN)
async def _stop_periodic(state: TaskiqState) -> None:
    if broker.is_worker_process and getattr(state, "varredura", None) is not None:
        await state.varredura.stop()
    if broker.is_worker_process and getattr(state, "periodic", None) is not None:
        await state.periodic.stop()
