"""One async driver per app, with reads routed to readers and the database always named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, LiteralString

from neo4j import AsyncDriver, AsyncGraphDatabase, AsyncManagedTransaction, RoutingControl

Statement = tuple[LiteralString, dict[str, Any]]


@dataclass(frozen=True)
class GraphStore:
    driver: AsyncDriver
    database: str

    async def read(self, query: LiteralString, **params: Any) -> list[dict[str, Any]]:
        return await self._run(query, RoutingControl.READ, params)

    async def write(self, query: LiteralString, **params: Any) -> list[dict[str, Any]]:
        return await self._run(query, RoutingControl.WRITE, params)

    async def write_many(self, statements: list[Statement]) -> None:
        """Run write statements in one transaction: all apply, or none (and it is retried)."""
        async with self.driver.session(database=self.database) as session:
            await session.execute_write(_run_all, statements)

    async def close(self) -> None:
        await self.driver.close()

    async def _run(
        self, query: LiteralString, routing: RoutingControl, params: dict[str, Any]
    ) -> list[dict[str, Any]]:
        # User values travel only in `parameters_`, never inside the query text.
        records, _, _ = await self.driver.execute_query(
            query, parameters_=params, routing_=routing, database_=self.database
        )
        return [record.data() for record in records]


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
    return GraphStore(driver=driver, database=database)
