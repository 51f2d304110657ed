"""One async driver per app, with reads routed to readers and the database always named.

Reads run as auto-commit queries: one round trip (RUN and PULL pipelined) where a managed
transaction takes two (BEGIN, RUN and PULL, then COMMIT), which halves what a search's
relationship paths wait for on Neo4j (about 8 ms a read against 13 ms locally). They are
retried as a managed transaction would be, on errors the driver calls retryable, for
`retry_seconds`, and share the driver's bookmarks so a read still follows the writes before
it on a cluster. An unreachable server is not retried: a circuit breaker (graph/_breaker.py)
then fails the calls that follow at once, until a probe gets through.

A request's deadline (`DEADLINE`, set by the app for the request) reaches the server as each
query's transaction timeout, so Neo4j stops the work when the request gives up on it.
"""

from __future__ import annotations

import asyncio
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, LiteralString

from neo4j import (
    READ_ACCESS,
    AsyncDriver,
    AsyncGraphDatabase,
    AsyncManagedTransaction,
    Query,
    RoutingControl,
)
from neo4j.exceptions import DriverError, Neo4jError, ServiceUnavailable

from graph._breaker import Breaker

Statement = tuple[LiteralString, dict[str, Any]]
FIRST_RETRY_DELAY = 0.05  # seconds, doubled after each retry
LEAST_TIMEOUT = 0.001  # seconds: a deadline just past still sends a timeout, not none
# When the current request must end, on the event loop's clock; None outside requests.
DEADLINE: ContextVar[float | None] = ContextVar("graph_deadline", default=None)


def _bounded(query: LiteralString) -> Query:
    """The query with what is left of the request's time as its transaction timeout."""
    deadline = DEADLINE.get()
    if deadline is None:
        return Query(query)
    left = deadline - asyncio.get_running_loop().time()
    return Query(query, timeout=max(LEAST_TIMEOUT, left))


@dataclass(frozen=True)
class GraphStore:
    driver: AsyncDriver
    database: str
    retry_seconds: float = 30.0
    breaker: Breaker = field(default_factory=Breaker, compare=False)

    async def read(self, query: LiteralString, **params: Any) -> list[dict[str, Any]]:
        async with self.breaker.guarding():
            return await self._read_retrying(query, params)

    async def write(self, query: LiteralString, **params: Any) -> list[dict[str, Any]]:
        async with self.breaker.guarding():
            # User values travel only in `parameters_`, never inside the query text.
            records, _, _ = await self.driver.execute_query(
                _bounded(query),
                parameters_=params,
                routing_=RoutingControl.WRITE,
                database_=self.database,
            )
        return [record.data() for record in records]

    async def write_many(self, statements: list[Statement]) -> None:
        """Run write statements in one transaction: all apply, or none (and it is retried)."""
        async with self.breaker.guarding(), self.driver.session(database=self.database) as session:
            await session.execute_write(_run_all, statements)

    async def _read_retrying(
        self, query: LiteralString, params: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """Retried on errors the driver calls retryable, but not on an unreachable server:
        the breaker answers the calls that follow."""
        deadline = time.monotonic() + self.retry_seconds
        delay = FIRST_RETRY_DELAY
        while True:
            try:
                return await self._read_once(query, params)
            except ServiceUnavailable:
                raise
            except (Neo4jError, DriverError) as error:
                if not error.is_retryable() or time.monotonic() + delay > deadline:
                    raise
            await asyncio.sleep(delay)
            delay *= 2

    async def close(self) -> None:
        await self.driver.close()

    async def _read_once(
        self, query: LiteralString, params: dict[str, Any]
    ) -> list[dict[str, Any]]:
        bookmarks = self.driver.execute_query_bookmark_manager
        async with self.driver.session(
            database=self.database, default_access_mode=READ_ACCESS, bookmark_manager=bookmarks
        ) as session:
            # User values travel only as parameters, never inside the query text.
            result = await session.run(_bounded(query), params)
            return await result.data()


async def _run_all(tx: AsyncManagedTransaction, statements: list[Statement]) -> None:
    for query, params in statements:
        result = await tx.run(query, params)
        await result.consume()


def open_graph(
    uri: str, user: str | None, password: str | None, database: str, timeout: float
) -> GraphStore:
    auth = (user, password) if user is not None and password is not None else None
    driver = AsyncGraphDatabase.driver(
        uri,
        auth=auth,
        connection_timeout=timeout,
        connection_acquisition_timeout=timeout,
        max_transaction_retry_time=timeout,
        # "property does not exist" warnings are expected: absent means null on our edges.
        notifications_min_severity="OFF",
    )
    return GraphStore(driver=driver, database=database, retry_seconds=timeout)
