"""A circuit breaker on the connections to Postgres.

While Postgres is down, a request would otherwise wait out the pool's timeout for a
connection that cannot come, holding its admission slot: under load most requests were then
refused OVERLOADED rather than told the database is unavailable (bench/RESULTS.md, databases
stopped under load). Once a connection is found broken, the breaker opens: taking a
connection fails at once with `PostgresUnreachable` (answered SERVICE_UNAVAILABLE) for
`cooldown` seconds. The pool keeps reconnecting in the background, and its first new
connection closes the breaker; after the cooldown one request at a time may also probe,
while the others still fail at once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import psycopg

COOLDOWN_SECONDS = 1.0


class PostgresUnreachable(psycopg.OperationalError):
    """Refused by the open breaker, without a connection attempt."""


@dataclass
class Breaker:
    cooldown: float = COOLDOWN_SECONDS
    _open_until: float | None = None  # None: closed
    _probing: bool = False

    def admit(self) -> bool:
        """Raise while open or while another request probes; True when this one probes."""
        if self._open_until is None:
            return False
        if self._probing or time.monotonic() < self._open_until:
            raise PostgresUnreachable("postgres could not be reached moments ago")
        self._probing = True
        return True

    def opened(self) -> None:
        self._open_until = time.monotonic() + self.cooldown

    def closed(self) -> None:
        self._open_until = None

    def probed(self) -> None:
        self._probing = False

    @property
    def is_open(self) -> bool:
        return self._open_until is not None
