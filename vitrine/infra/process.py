"""Child processes that die with their parent, however the parent ends (SIGKILL and the OOM
killer included): Linux's parent-death signal, `prctl(PR_SET_PDEATHSIG)`.

A worker left running after its supervisor died would keep taking tasks from the queue with
nobody to stop it. The signal is set by the child for itself, survives exec but not fork (each
generation sets its own), and is sent when the parent *thread* that started the child ends: start
children from a thread that lives as long as the process. Elsewhere than Linux it does nothing."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1
# Loaded once here: a preexec_fn runs between fork and exec, where importing or loading is unsafe.
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def die_with_parent(parent_pid: int) -> None:
    """Have the kernel SIGKILL the calling process when its parent, `parent_pid`, ends."""
    if _libc is None:
        return
    if _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"prctl(PR_SET_PDEATHSIG): {os.strerror(errno)}")
    if os.getppid() != parent_pid:  # the parent ended before the request took effect
        os.kill(os.getpid(), signal.SIGKILL)


def tied_to_this_process() -> Callable[[], None]:
    """A `preexec_fn` for `subprocess.Popen`: the child is killed when this process ends."""
    parent = os.getpid()
    return lambda: die_with_parent(parent)


def die_with_multiprocessing_parent() -> None:
    """In a `multiprocessing` child (taskiq's worker processes, `serve --processes`): die with the
    process that started it. Does nothing in a process multiprocessing did not start."""
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None and parent.pid is not None:
        die_with_parent(parent.pid)
