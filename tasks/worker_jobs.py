"""What every worker process runs besides its tasks (Redis mode): the periodic jobs' loop (a Redis
lock makes each job run once per period across processes), its heartbeat for the readiness checks
(vitrine/health.py) and, when the worker's port serves metrics, the sampling of what only this
process's memory knows (vitrine/metrics.py)."""

from taskiq import TaskiqEvents, TaskiqState

from tasks import maintenance
from tasks.broker import broker
from tasks.scheduler import PeriodicJobs
from vitrine import metrics
from vitrine.health import Heartbeat


@broker.on_event(TaskiqEvents.WORKER_STARTUP)
async def _start_periodic(state: TaskiqState) -> None:
    if broker.is_worker_process:
        settings = state.runtime.settings
        state.periodic = PeriodicJobs(
            maintenance.periodic(settings), state.runtime.redis, key_prefix=settings.redis_key("agenda")
        )
        state.periodic.start()
        state.heartbeat = Heartbeat(state.runtime.redis, settings)
        state.heartbeat.start()
        state.sampler = metrics.ProcessSampler(state.runtime)
        if metrics.multiprocess_dir() is not None:
            state.sampler.start()


@broker.on_event(TaskiqEvents.WORKER_SHUTDOWN)
async def _stop_periodic(state: TaskiqState) -> None:
    if not broker.is_worker_process:
        return
    for name in ("periodic", "heartbeat", "sampler"):
        if getattr(state, name, None) is not None:
            await getattr(state, name).stop()
