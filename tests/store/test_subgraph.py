"""The walk's subgraph (store/subgraph.py), read from Postgres or from the collection's
mentions held in memory: each node keeps its `fanout` strongest mentions, ties by id, and a
cut marks the subgraph truncated."""

from __future__ import annotations

import asyncio
from uuid import UUID

import psycopg
import pytest

from app.localdb.stack import Stack
from retrieval.ppr import Restart, Subgraph
from store import mentions
from store.subgraph import Bounds, entity_chunk_subgraph, held_steps, sql_steps
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


@pytest.mark.parametrize("held", [False, True], ids=["sql", "held"])
def test_a_node_keeps_its_strongest_mentions_ties_by_id(
    gql: GraphQLClient, stack: Stack, held: bool
) -> None:
    name = graphed_collection(gql, stack, *GUIDE)
    tenant_id, collection_id, ilse = rows(
        stack,
        "SELECT e.tenant_id, e.collection_id, e.id::text FROM entities e JOIN collections c"
        " ON c.id = e.collection_id WHERE c.name = %s AND e.name = 'Ilse Brandvold'",
        name,
    )[0]
    mentioned = rows(
        stack, "SELECT chunk_id::text, weight FROM mentions WHERE entity_id = %s", ilse
    )
    assert len({w for _, w in mentioned}) == 2
    strongest = sorted(mentioned, key=lambda m: (-m[1], m[0]))
    tenant = Tenant(tenant_id, "t")
    walk = _Walk(stack, tenant, collection_id if held else None)

    cut = walk(ilse, Bounds(fanout=2, max_edges=1000))
    assert sorted(c for _, c in cut.edges) == sorted(c for c, _ in strongest[:2])
    assert cut.truncated

    whole = walk(ilse, Bounds(fanout=50, max_edges=1000))
    assert {c: w for (_, c), w in whole.edges.items()} == {c: float(w) for c, w in mentioned}
    assert not whole.truncated
    assert all(whole.parent[c] == ilse for c, _ in mentioned)


class _Walk:
    """A one-hop walk from a seed, read from SQL, or from the mentions of `collection` held."""

    def __init__(self, stack: Stack, tenant: Tenant, collection: UUID | None) -> None:
        self._url = stack.endpoints.postgres_url
        self._tenant = tenant
        self._collection = collection

    def __call__(self, seed: str, bounds: Bounds) -> Subgraph:
        return asyncio.run(self._read(seed, bounds))

    async def _read(self, seed: str, bounds: Bounds) -> Subgraph:
        async with await psycopg.AsyncConnection.connect(self._url) as conn:
            steps = sql_steps(conn, self._tenant)
            if self._collection is not None:
                graph = await mentions.held_graph(conn, self._tenant.id, self._collection)
                assert graph is not None
                steps = held_steps(graph)
            return await entity_chunk_subgraph(steps, Restart((seed,)), 1, bounds)
