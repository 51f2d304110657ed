"""Warming search and answers up when a server starts, so that its first users' requests are
not the slow ones.

Cold, the first search after a start took 1.9–2.8 s where a warm one takes 0.1–0.2 s: spaCy's
pipeline and the embedding model load on first use, and Neo4j compiles the query plans of
the relationship paths the first time it sees them. The warm-up loads both models and
runs each path query once against a tenant that does not exist, so nothing is read. The
answer composers load theirs too: the span reader's weights took over a second.
Readiness (`/readyz`) waits for it; a failure is logged, and readiness waits no longer.

Then the objects loaded so far are frozen out of the garbage collector's sight: the modules,
the models and the clients live as long as the server, and every full collection walked
them, pausing whichever request triggered it for 100–150 ms on two cores (bench/RESULTS.md).
"""

from __future__ import annotations

import gc
import logging
import time
from typing import Protocol

log = logging.getLogger(__name__)


class Warmable(Protocol):
    async def warm_up(self) -> None: ...


class WarmUp:
    def __init__(self) -> None:
        self.seconds: float | None = None  # how long it took, once it has ended

    @property
    def done(self) -> bool:
        return self.seconds is not None

    async def run(self, *targets: Warmable) -> None:
        started = time.perf_counter()
        try:
            for target in targets:
                await _warmed(target)
        finally:
            _freeze_what_was_loaded()
            self.seconds = time.perf_counter() - started


async def _warmed(target: Warmable) -> None:
    try:
        await target.warm_up()
    except Exception:  # an optimisation only: the server serves cold instead
        log.warning("warm-up failed; the first requests will be slower", exc_info=True)


def _freeze_what_was_loaded() -> None:
    """A collection first, so that no garbage is frozen with what lives on."""
    gc.collect()
    gc.freeze()
