"""Whether the speed-ups that redo a library's work by hand are in use.

Three parts of the hot path take the place of library code: the fast executor
(graphql_api/executor.py), the direct resolver call it makes (graphql_api/direct_call.py) and the
reads by primary key with prepared SQL (graphql_api/core/prepared.py). Each is held to the
library's answers by tests; VITRINE_GRAPHQL_SHORTCUTS=off (vitrine/settings.py) puts the library
back in every one of them, to tell a wrong answer of a shortcut from one of the service, and so
that the suite runs the API and portal tests once without them. The composition root sets it once
per process (vitrine/runtime.py)."""

from __future__ import annotations

_enabled = True


def enabled() -> bool:
    return _enabled


def configure(enabled: bool) -> None:
    global _enabled
    _enabled = enabled
