"""The modules whose tasks a process registers with the broker (web process and workers)."""

import importlib

TASK_MODULES = [
    "tasks.maintenance",
    "tasks.email",
    "tasks.avisos",
    "tasks.conferencia",
    "tasks.geracao",
    "tasks.worker_jobs",
    "tasks.creditos",
]


def import_all() -> None:
    for module in TASK_MODULES:
        importlib.import_module(module)
