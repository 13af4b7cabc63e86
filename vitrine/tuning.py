"""Process tuning for long-running servers and workers."""

import gc


def tune_gc() -> None:
    # A request allocates thousands of short-lived objects (GraphQL execution, JSON): a larger
    # young generation means far fewer collections, and freezing what start-up allocated keeps
    # the collector from rescanning it (docs/decisoes/0003-caminho-quente-da-fachada.md).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
