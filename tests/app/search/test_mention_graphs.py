"""A collection's mentions held in memory for the graph walk: the same walk as SQL, stale the
moment the mentions change, never used for a key with content scopes, bounded in memory."""

from __future__ import annotations

import asyncio
from typing import TypeVar

import pytest

from app.localdb.stack import Stack
from app.search.mention_graphs import MentionGraphs
from app.settings import CopySettings
from retrieval.mention_graph import MentionGraph
from retrieval.ppr import Restart, Subgraph
from store import bm25, mentions
from store.pool import Pool
from store.scope import Scope
from store.subgraph import Bounds, entity_chunk_subgraph, held_steps, sql_steps
from store.tenants import Tenant
from tests.graph_helpers import graphed_collection, wait_until_graphed
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, rows, with_pool

pytestmark = pytest.mark.integration

DELETE = """mutation($c: String!, $id: String!) {
  deleteDocument(collection: $c, externalId: $id) { deleted } }"""
DOCS = [
    {"externalId": "a", "title": "Orla Penhallow",
     "text": "Orla Penhallow founded the Tessary Foundry in Brackwater."},
    {"externalId": "b", "title": "Tessary Foundry",
     "text": "The Tessary Foundry cast bells for Saint Ide's Church in Brackwater."},
    {"externalId": "c", "title": "Saint Ide's Church",
     "text": "Saint Ide's Church stands in Brackwater beside the Tessary Foundry."},
]  # fmt: skip
NEW = {"externalId": "d", "title": "Brackwater", "text": "Brackwater lies on the Vell estuary."}
BOUNDS = Bounds(fanout=50, max_edges=1000)
T = TypeVar("T")


def _collection(gql: GraphQLClient, stack: Stack) -> tuple[str, Scope, list[str]]:
    name = graphed_collection(gql, stack, *DOCS)
    tenant, collection = rows(stack, "SELECT tenant_id, id FROM collections WHERE name = %s", name)[
        0
    ]
    entities = rows(stack, "SELECT id::text FROM entities WHERE collection_id = %s", collection)
    return name, Scope(tenant, collection), sorted(e for (e,) in entities)


async def _held(
    pool: Pool, graphs: MentionGraphs, tenant: Tenant, scope: Scope
) -> MentionGraph | None:
    async with pool.connection() as conn:
        stats = await bm25.stats(conn, scope.tenant_id, scope.collection_id)
    return graphs.held(tenant, scope, stats)


async def _built(pool: Pool, graphs: MentionGraphs, tenant: Tenant, scope: Scope) -> MentionGraph:
    """The collection's mentions, once searches have started their build and it is done (a
    rebuild waits a pause after the last: app/search/_built.py)."""
    for _ in range(200):
        await _held(pool, graphs, tenant, scope)
        await graphs.settle()
        graph = await _held(pool, graphs, tenant, scope)
        if graph is not None:
            return graph
        await asyncio.sleep(0.05)
    raise AssertionError("the mentions were never held")


async def _walks(
    pool: Pool, graph: MentionGraph, tenant: Tenant, seeds: list[str]
) -> tuple[Subgraph, Subgraph]:
    """The two-hop walk from `seeds`, from the held mentions and from SQL."""
    start = Restart(tuple(seeds))
    async with pool.connection() as conn:
        sql = await entity_chunk_subgraph(sql_steps(conn, tenant), start, 2, BOUNDS)
    held = await entity_chunk_subgraph(held_steps(graph), start, 2, BOUNDS)
    return held, sql


def test_held_mentions_walk_like_sql_once_built(gql: GraphQLClient, stack: Stack) -> None:
    _, scope, entities = _collection(gql, stack)
    tenant = Tenant(scope.tenant_id, "t")

    async def work(pool: Pool) -> None:
        graphs = MentionGraphs(pool, CopySettings(0, 10**6))
        assert await _held(pool, graphs, tenant, scope) is None  # the first search reads SQL
        graph = await _built(pool, graphs, tenant, scope)
        assert graph.size == rows(
            stack, "SELECT count(*) FROM mentions m JOIN entities e ON e.id = m.entity_id"
            " WHERE e.collection_id = %s", scope.collection_id)[0][0]  # fmt: skip
        for seed in entities:
            held, sql = await _walks(pool, graph, tenant, [seed])
            assert held.edges == sql.edges and held.parent == sql.parent
            assert held.chunks == sql.chunks and held.truncated == sql.truncated

    with_pool(stack, work)


def test_held_mentions_count_documents_like_sql(gql: GraphQLClient, stack: Stack) -> None:
    """The graph leg's seed specificity: the fewest documents mentioning any one name, for
    one entity, for a name several entities were linked by, and for several names."""
    _, scope, entities = _collection(gql, stack)
    tenant = Tenant(scope.tenant_id, "t")
    groups = [{e: "one" for e in entities[:2]}, {e: e for e in entities}, {}]
    groups += [{e: "name"} for e in entities]

    async def work(pool: Pool) -> None:
        graph = await _built(pool, MentionGraphs(pool, CopySettings(0, 10**6)), tenant, scope)
        for seeds in groups:
            async with pool.connection() as conn:
                sql = await mentions.fewest_documents(conn, tenant, seeds)
            assert graph.fewest_documents(seeds, mentions.MOST_DOCUMENTS) == sql
            assert graph.fewest_documents(seeds, 1) == (None if sql is None else min(sql, 1))

    with_pool(stack, work)


def test_held_mentions_go_stale_when_documents_are_graphed_or_deleted(
    gql: GraphQLClient, stack: Stack
) -> None:
    name, scope, _ = _collection(gql, stack)
    tenant = Tenant(scope.tenant_id, "t")

    async def work(pool: Pool) -> None:
        graphs = MentionGraphs(pool, CopySettings(0, 10**6))
        before = await _built(pool, graphs, tenant, scope)
        await asyncio.to_thread(ingest, gql, name, NEW)
        await asyncio.to_thread(wait_until_graphed, stack, name, len(DOCS) + 1)
        assert await _held(pool, graphs, tenant, scope) is None  # stale: SQL answers
        after = await _built(pool, graphs, tenant, scope)
        assert after.size > before.size
        await asyncio.to_thread(gql.data, DELETE, c=name, id="d")
        assert await _held(pool, graphs, tenant, scope) is None
        assert (await _built(pool, graphs, tenant, scope)).size == before.size

    with_pool(stack, work)


def test_scoped_keys_small_and_oversized_collections_read_sql(
    gql: GraphQLClient, stack: Stack
) -> None:
    _, scope, _ = _collection(gql, stack)
    tenant = Tenant(scope.tenant_id, "t")
    scoped = Tenant(scope.tenant_id, "t", content_scopes=("legal",))

    async def work(pool: Pool) -> None:
        graphs = MentionGraphs(pool, CopySettings(0, 10**6))
        await _built(pool, graphs, tenant, scope)
        assert await _held(pool, graphs, scoped, scope) is None
        for limits in (CopySettings(10**6, 10**6), CopySettings(0, 2)):
            graphs = MentionGraphs(pool, limits)
            await _held(pool, graphs, tenant, scope)
            await graphs.settle()
            assert await _held(pool, graphs, tenant, scope) is None

    with_pool(stack, work)
