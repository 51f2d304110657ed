"""The bounded breadth-first step: a hub with more edges than the scan bound stays cheap."""

from __future__ import annotations

import asyncio
import uuid
from typing import LiteralString

import pytest

from app.localdb.stack import Stack
from graph.driver import open_graph
from graph.expansion import Step, step
from graph.temporal import NOW
from retrieval.bounds import SCAN_PER_NODE

pytestmark = pytest.mark.integration


def test_a_hub_is_scanned_only_up_to_the_bound(stack: Stack) -> None:
    tenant, hub = f"t-{uuid.uuid4().hex[:8]}", str(uuid.uuid4())
    cypher_write(
        stack,
        "CREATE (h:Entity {id: $hub, tenant_id: $t}) WITH h UNWIND range(1, $n) AS i"
        " CREATE (h)-[:CO_OCCURS {weight: i % 7 + 1, document_id: 'd'}]->"
        "(:Entity {id: $hub + '-' + i, tenant_id: $t})",
        hub=hub,
        t=tenant,
        n=SCAN_PER_NODE + 500,
    )

    async def expand() -> Step:
        graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
        try:
            return await step(graph, tenant, [hub], NOW, [], 10)
        finally:
            await graph.close()

    found = asyncio.run(expand())
    assert found.truncated
    assert len(found.neighbours[hub]) == 10
    assert {weight for _, weight in found.neighbours[hub]} == {7.0}


def cypher_write(stack: Stack, query: LiteralString, **params: object) -> None:
    async def write() -> None:
        graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
        try:
            await graph.write(query, **params)
        finally:
            await graph.close()

    asyncio.run(write())
