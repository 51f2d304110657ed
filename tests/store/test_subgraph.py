"""The walk's subgraph read from Postgres (store/subgraph.py): each node keeps its `fanout`
strongest mentions, ties by id, and a cut marks the subgraph truncated."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from app.localdb.stack import Stack
from retrieval.ppr import Restart, Subgraph
from store.subgraph import Bounds, entity_chunk_subgraph
from store.tenants import Tenant
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration

# Three chunks are about Ilse Brandvold (their title names her): they weigh more.
GUIDE = [
    {"externalId": f"g{i}", "title": "Ilse Brandvold" if i % 2 else f"Kiln log {i}",
     "text": f"Ilse Brandvold inspected kiln {i} of the Lantern Works."}
    for i in range(6)
]  # fmt: skip


def test_a_node_keeps_its_strongest_mentions_ties_by_id(gql: GraphQLClient, stack: Stack) -> None:
    name = graphed_collection(gql, stack, *GUIDE)
    tenant_id, ilse = rows(
        stack,
        "SELECT e.tenant_id, e.id::text FROM entities e JOIN collections c"
        " ON c.id = e.collection_id WHERE c.name = %s AND e.name = 'Ilse Brandvold'",
        name,
    )[0]
    mentioned = rows(
        stack, "SELECT chunk_id::text, weight FROM mentions WHERE entity_id = %s", ilse
    )
    assert len({w for _, w in mentioned}) == 2
    strongest = sorted(mentioned, key=lambda m: (-m[1], m[0]))
    tenant = Tenant(tenant_id, "t")

    cut = _walk(stack, tenant, ilse, Bounds(fanout=2, max_edges=1000))
    assert sorted(c for _, c in cut.edges) == sorted(c for c, _ in strongest[:2])
    assert cut.truncated

    whole = _walk(stack, tenant, ilse, Bounds(fanout=50, max_edges=1000))
    assert {c: w for (_, c), w in whole.edges.items()} == {c: float(w) for c, w in mentioned}
    assert not whole.truncated
    assert all(whole.parent[c] == ilse for c, _ in mentioned)


def _walk(stack: Stack, tenant: Tenant, seed: str, bounds: Bounds) -> Subgraph:
    async def read() -> Subgraph:
        async with await psycopg.AsyncConnection.connect(stack.endpoints.postgres_url) as conn:
            return await entity_chunk_subgraph(conn, tenant, Restart((seed,)), 1, bounds)

    return asyncio.run(read())
