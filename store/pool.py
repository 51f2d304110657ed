"""The async connection pool, with pgvector registered on every connection, and a request's
deadline set on every connection it takes.

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

from pgvector.psycopg import register_vector_async
from psycopg import AsyncConnection
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool

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


class _DeadlinePool(AsyncConnectionPool[Conn]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The statement_timeout each connection has, in milliseconds; absent when off.
        self._timeouts: weakref.WeakKeyDictionary[Conn, int] = weakref.WeakKeyDictionary()

    @asynccontextmanager
    async def connection(self, timeout: float | None = None) -> AsyncIterator[Conn]:
        async with super().connection(timeout) as conn:
            await self._bound(conn)
            yield conn

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
        configure=_configure,
        # Discard connections broken by a server restart instead of handing them out.
        check=_check,
        kwargs={
            "connect_timeout": max(1, int(timeout)),
            "application_name": "trellis",
            "prepare_threshold": PREPARE_THRESHOLD,
        },
    )
    await pool.open(wait=True, timeout=timeout)
    return pool


async def _check(conn: Conn) -> None:
    """The pool's check of a connection before it is handed out, with no round trip for a
    healthy one. psycopg's own check sends an empty query each time: fifteen round trips a
    search. An idle connection has nothing to read unless the server closed it (a restart,
    or a terminated backend), so only then is the full check run: it raises, and the pool
    discards the connection."""
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
