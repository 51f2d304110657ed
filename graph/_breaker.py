"""A circuit breaker on the connection to Neo4j.

When Neo4j cannot be reached, every call would otherwise make its own connection attempt
and retries, and a search's graph leg would hold its request's admission slot until the
leg's timeout: with Neo4j down, most searches were refused OVERLOADED instead of answered
without their graph leg (bench/RESULTS.md, databases stopped under load). Once a call finds
the server unreachable, the breaker opens: calls fail at once with ServiceUnavailable for
`cooldown` seconds. Then one call at a time probes, while the others still fail at once;
the first answer from the server closes the breaker.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from neo4j.exceptions import ServiceUnavailable

COOLDOWN_SECONDS = 1.0


@dataclass
class Breaker:
    cooldown: float = COOLDOWN_SECONDS
    _open_until: float | None = None  # None: closed
    _probing: bool = False

    @asynccontextmanager
    async def guarding(self) -> AsyncIterator[None]:
        """Run a call through the breaker: refused while open, and it records the outcome."""
        probe = self._admit()
        try:
            yield
        except ServiceUnavailable:
            self._open_until = time.monotonic() + self.cooldown
            raise
        except Exception:
            self._open_until = None  # the server answered, with an error of the call's own
            raise
        else:
            self._open_until = None
        finally:
            if probe:
                self._probing = False

    def _admit(self) -> bool:
        """Raise while open or while another call probes; True when this call probes."""
        if self._open_until is None:
            return False
        if self._probing or time.monotonic() < self._open_until:
            raise ServiceUnavailable("neo4j could not be reached moments ago")
        self._probing = True
        return True
