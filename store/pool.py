"""The async connection pool, with pgvector registered on every connection, a request's
deadline set on every connection it takes, and a circuit breaker (store/_breaker.py) that
fails requests at once while the server cannot be reached.

The deadline (`DEADLINE`, set by the app for the request) reaches the server as
`statement_timeout`, so Postgres stops a statement the request has given up on; rounded up by
at most an eighth, so that a connection rarely needs it set again. A connection
handed out with no deadline (the background queues) has the timeout turned off again if a
request had set one.
"""

from __future__ import annotations

import asyncio
import select
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import psycopg
from pgvector.psycopg import register_vector_async
from psycopg import AsyncConnection
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool, PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

from store._breaker import Breaker

Conn = AsyncConnection[TupleRow]
Pool = AsyncConnectionPool[Conn]
# psycopg prepares a statement on its fifth run by default, and Postgres may then plan it
# once for any values. A generic plan of the dense search chose other neighbours than the
# plan for the query's own vector and scope, so the same search answered differently once a
# connection had served a few hundred. Unprepared, every statement is planned for its own
# values; and a transaction-pooling proxy in front of the server needs no prepared
# statements either.
PREPARE_THRESHOLD = None
# When the current request must end, on the event loop's clock; None outside requests.
DEADLINE: ContextVar[float | None] = ContextVar("postgres_deadline", default=None)
_SET_TIMEOUT = "SELECT set_config('statement_timeout', %s, false)"
_PROBE = {"connect_timeout": 1}  # a reachable server answers a connection in milliseconds


class _DeadlinePool(AsyncConnectionPool[Conn]):
    def __init__(self, url: str, connect: dict[str, Any], **kwargs: Any) -> None:
        self.breaker = Breaker()
        self._probe = (url, {**connect, **_PROBE})
        super().__init__(
            url, kwargs=connect, configure=self._configured, check=self._checked, **kwargs
        )
        # The statement_timeout each connection has, in milliseconds; absent when off.
        self._timeouts: weakref.WeakKeyDictionary[Conn, int] = weakref.WeakKeyDictionary()

    @asynccontextmanager
    async def connection(self, timeout: float | None = None) -> AsyncIterator[Conn]:
        probe = self.breaker.admit()
        try:
            async with super().connection(timeout) as conn:
                try:
                    await self._bound(conn)
                    yield conn
                finally:
                    await self._judge(conn, probe)
        except PoolTimeout:
            if probe:
                self.breaker.opened()
            raise
        finally:
            if probe:
                self.breaker.probed()

    async def _judge(self, conn: Conn, probe: bool) -> None:
        """A connection that broke in use opens the breaker if the server is gone; one that
        served a probe closes it."""
        if conn.broken:
            await self._opened_if_unreachable()
        elif probe:
            self.breaker.closed()

    async def _opened_if_unreachable(self) -> None:
        """One connection attempt tells a server that is gone (a restart, an outage) from
        one backend that ended (terminated, or idle too long), which must not fail others.
        Once open, the breaker already knows: the requests that find the rest of the pool's
        connections broken make no attempt each."""
        if self.breaker.is_open:
            return
        url, connect = self._probe
        try:
            conn = await AsyncConnection.connect(url, **connect)
        except psycopg.OperationalError:
            self.breaker.opened()
        else:
            await conn.close()

    async def _add_connection(
        self, attempt: AttemptWithBackoff | None, growing: bool = False
    ) -> None:
        retry = attempt or _SteadyRetry(timeout=self.reconnect_timeout)
        await super()._add_connection(retry, growing)

    async def _configured(self, conn: Conn) -> None:
        await _configure(conn)
        self.breaker.closed()  # the pool reached the server again

    async def _checked(self, conn: Conn) -> None:
        try:
            await _check(conn)
        except psycopg.OperationalError:
            await self._opened_if_unreachable()
            raise

    async def _bound(self, conn: Conn) -> None:
        deadline = DEADLINE.get()
        milliseconds = 0 if deadline is None else timeout_for(_left(deadline))
        if milliseconds == self._timeouts.get(conn, 0):
            return
        await _set_outside_a_transaction(conn, milliseconds)
        if milliseconds:
            self._timeouts[conn] = milliseconds
        else:
            self._timeouts.pop(conn, None)


class _SteadyRetry(AttemptWithBackoff):
    """Reconnection attempts about a second apart, not doubling: psycopg's doubling left the
    pool waiting up to sixteen seconds after a twenty-second outage ended, with requests
    refused meanwhile. An attempt against a server that is down is refused in a
    millisecond, so trying each second costs nothing."""

    DELAY_BACKOFF = 1.0


async def _set_outside_a_transaction(conn: Conn, milliseconds: int) -> None:
    """One round trip: run in autocommit, the setting opens no transaction to commit (a
    connection is idle when handed out, so switching is local to the client)."""
    autocommit = conn.autocommit
    await conn.set_autocommit(True)
    try:
        await conn.execute(_SET_TIMEOUT, (str(milliseconds),))
    finally:
        await conn.set_autocommit(autocommit)


def timeout_for(left: int) -> int:
    """The statement_timeout for `left` milliseconds: rounded up on a grid an eighth as fine
    as `left`'s power of two, so it overshoots by at most an eighth. Setting it costs a round
    trip, and a search takes a connection about fifteen times: rounded, a connection keeps
    its timeout through most of a request and into the next of its kind."""
    step = max(1, (1 << (left.bit_length() - 1)) // 8)
    return -(-left // step) * step


def _left(deadline: float) -> int:
    """Whole milliseconds left, at least one: zero would turn the timeout off."""
    return max(1, int((deadline - asyncio.get_running_loop().time()) * 1000))


async def open_pool(url: str, size: int, timeout: float) -> Pool:
    """Open and fill the pool; raises PoolTimeout when the server does not answer."""
    pool: Pool = _DeadlinePool(
        url,
        min_size=1,
        max_size=size,
        timeout=timeout,
        open=False,
        connect={
            "connect_timeout": max(1, int(timeout)),
            "application_name": "trellis",
            "prepare_threshold": PREPARE_THRESHOLD,
        },
    )
    await pool.open(wait=True, timeout=timeout)
    return pool


async def _check(conn: Conn) -> None:
    """The pool's check of a connection before it is handed out, which discards one broken by
    a server restart instead of handing it out, with no round trip for a healthy one.
    psycopg's own check sends an empty query each time: fifteen round trips a search. An idle
    connection has nothing to read unless the server closed it (a restart, or a terminated
    backend), so only then is the full check run: it raises, and the pool discards it."""
    if conn.closed or conn.broken or _readable(conn):
        await AsyncConnectionPool.check_connection(conn)


def _readable(conn: Conn) -> bool:
    readable, _, _ = select.select([conn.pgconn.socket], [], [], 0)
    return bool(readable)


@asynccontextmanager
async def autocommitted(pool: Pool) -> AsyncIterator[Conn]:
    """A connection whose statements commit as they run, for single statements and reads: a
    request's authentication and rate count, or a search's reads, then cost no BEGIN and
    COMMIT round trips (a search acquires a connection about a dozen times). Statements
    that must apply together still open `conn.transaction()`."""
    async with pool.connection() as conn:
        await conn.set_autocommit(True)
        try:
            yield conn
        finally:
            await conn.set_autocommit(False)


async def _configure(conn: AsyncConnection[TupleRow]) -> None:
    await register_vector_async(conn)
    # register_vector_async queries the catalog; end that implicit transaction so the
    # pool receives an idle connection.
    await conn.commit()


def breaker_open(pool: Pool) -> bool:
    """Whether the pool fails requests at once, having found the server unreachable."""
    return isinstance(pool, _DeadlinePool) and pool.breaker.is_open
