"""The services a benchmark runs against, on a local stack's databases."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from app.localdb.stack import Stack
from app.services import Services, assemble
from graph.constraints import ensure_constraints
from graph.driver import open_graph
from store.migrations import migrate
from store.pool import open_pool


@asynccontextmanager
async def bench_services(stack: Stack) -> AsyncIterator[Services]:
    await migrate(stack.endpoints.postgres_url)
    pool = await open_pool(stack.endpoints.postgres_url, 8, 60)
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 60)
    services = assemble(stack.settings, pool, graph)
    try:
        await ensure_constraints(graph)
        yield services
    finally:
        await services.close()
