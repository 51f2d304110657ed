"""Personalized PageRank over a bounded entity-chunk subgraph fetched from Neo4j."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack
from app.search.graph_leg import GraphDiscovery, GraphQuery
from app.search.mention_graphs import MentionGraphs
from app.settings import CopySettings
from graph.driver import open_graph
from graph.edges import RelationshipPath
from graph.temporal import NOW
from retrieval.ppr import Restart, Subgraph, personalized_pagerank, rank_chunks
from store.pool import open_pool
from store.subgraph import Bounds, entity_chunk_subgraph, sql_steps
from store.tenants import Tenant
from tests.graph_helpers import cypher, wait_until_graphed
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection


def test_scores_sum_to_one_and_favour_the_seed_side() -> None:
    edges = {
        ("alice", "c1"): 1.0,
        ("bob", "c1"): 1.0,
        ("bob", "c2"): 1.0,
        ("carol", "c3"): 1.0,
        ("dave", "c3"): 1.0,
    }
    nodes = sorted({n for e in edges for n in e})
    scores = personalized_pagerank(nodes, edges, Restart(("alice",)))
    assert sum(scores.values()) == pytest.approx(1.0)
    assert scores["c1"] > scores["c2"] > scores["c3"] == 0.0


def test_hub_seeds_get_less_restart_mass() -> None:
    edges = {("hub", f"c{i}"): 1.0 for i in range(20)} | {("rare", "x"): 1.0}
    nodes = sorted({n for e in edges for n in e})
    scores = personalized_pagerank(nodes, edges, Restart(("hub", "rare")))
    assert scores["x"] > scores["c0"]


def test_paths_lead_back_to_a_seed() -> None:
    sub = Subgraph(
        edges={("alice", "c1"): 1.0, ("bob", "c1"): 1.0, ("bob", "c2"): 1.0},
        parent={"c1": "alice", "bob": "c1", "c2": "bob"},
        chunks={"c1", "c2"},
    )
    ranked = rank_chunks(sub, Restart(("alice",)), first=5)
    assert [r.chunk_id for r in ranked] == ["c1", "c2"]
    assert ranked[1].path == ["alice", "c1", "bob", "c2"]


def test_an_anchor_passage_starts_the_walk_beside_the_seeds() -> None:
    """A passage the dense leg found carries a share of the restart mass: the walk reaches
    its entities' passages though no seed is near them."""
    sub = Subgraph(
        edges={("alice", "c1"): 1.0, ("carol", "c3"): 1.0, ("carol", "c4"): 1.0},
        parent={"c1": "alice", "carol": "c3", "c4": "carol"},
        chunks={"c1", "c3", "c4"},
    )
    ranked = rank_chunks(sub, Restart(("alice",), anchors=(("c3", 0.8),)), first=5)
    assert [r.chunk_id for r in ranked] == ["c1", "c3", "c4"]
    assert ranked[1].path == [] and ranked[2].path == ["carol", "c4"]


def test_an_anchor_alone_holds_all_the_restart_mass() -> None:
    edges = {("carol", "c3"): 1.0, ("carol", "c4"): 1.0}
    nodes = sorted({n for e in edges for n in e})
    scores = personalized_pagerank(nodes, edges, Restart(anchors=(("c3", 0.5),)))
    assert sum(scores.values()) == pytest.approx(1.0)
    assert scores["c3"] > scores["c4"] > 0.0


def test_a_weighted_seed_starts_the_walk_with_less_mass_than_a_named_one() -> None:
    """An entity of a fact the query resembles walks too, below the entity it names; alone,
    it holds all the mass."""
    sub = Subgraph(
        edges={("alice", "c1"): 1.0, ("dora", "c5"): 1.0},
        parent={"c1": "alice", "c5": "dora"},
        chunks={"c1", "c5"},
    )
    both = rank_chunks(sub, Restart(("alice",), weighted=(("dora", 0.3),)), first=5)
    assert [r.chunk_id for r in both] == ["c1", "c5"]
    assert both[1].path == ["dora", "c5"]
    alone = rank_chunks(sub, Restart(weighted=(("dora", 0.3),)), first=5)
    assert [r.chunk_id for r in alone] == ["c5"]


def test_a_named_seed_keeps_its_weight_when_a_fact_names_it_too() -> None:
    edges = {("alice", "c1"): 1.0, ("dora", "c5"): 1.0}
    nodes = sorted({n for e in edges for n in e})
    named = personalized_pagerank(nodes, edges, Restart(("alice", "dora")))
    weighted = Restart(("alice", "dora"), weighted=(("dora", 0.3),))
    assert personalized_pagerank(nodes, edges, weighted) == pytest.approx(named)


@pytest.fixture(scope="module")
def three_people(
    http: httpx.Client, tenant_key_module: str, stack: Stack
) -> tuple[dict[str, Any], dict[str, str]]:
    """Alice's chunk, Bob's chunk two hops from Alice, and an unrelated chunk: Alice's entity
    row and each chunk's document."""
    gql = GraphQLClient(http, tenant_key_module)
    name = new_collection(gql)
    ingest(
        gql,
        name,
        {"externalId": "a", "text": "Alice Smith founded Northwind Analytics with Bob Jones."},
        {"externalId": "b", "text": "Bob Jones was born in Lisbon and studied in Porto."},
        {"externalId": "c", "text": "Carol White painted landscapes in Vienna for Max Brandt."},
    )
    wait_until_graphed(stack, name, 3)
    cid = gql.data("query($n: String!) { collection(name: $n) { id } }", n=name)["collection"]["id"]
    alice = cypher(
        stack,
        "MATCH (e:Entity {collection_id: $c, name: 'Alice Smith'})"
        " RETURN e.id AS id, e.tenant_id AS tenant",
        c=cid,
    )[0]
    return alice, _chunk_docs(stack, cid)


@pytest.mark.integration
def test_a_two_hop_chunk_ranks_above_an_unrelated_one(
    three_people: tuple[dict[str, Any], dict[str, str]], stack: Stack
) -> None:
    alice, docs = three_people
    sub = subgraph(stack, alice["tenant"], [alice["id"]], hops=2, fanout=50, max_edges=1000)
    ranked = [docs[r.chunk_id] for r in rank_chunks(sub, Restart((alice["id"],)), 10)]
    assert ranked[:2] == ["a", "b"]
    assert "c" not in ranked


def subgraph(
    stack: Stack, tenant: str, seeds: list[str], hops: int, fanout: int, max_edges: int
) -> Subgraph:
    async def fetch() -> Subgraph:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            start, bounds = Restart(tuple(seeds)), Bounds(fanout, max_edges)
            async with pool.connection() as conn:
                target = Tenant(uuid.UUID(tenant), "t")
                return await entity_chunk_subgraph(sql_steps(conn, target), start, hops, bounds)
        finally:
            await pool.close()

    return asyncio.run(fetch())


def _chunk_docs(stack: Stack, collection_id: str) -> dict[str, str]:
    found = cypher(
        stack,
        "MATCH (c:Chunk {collection_id: $c})-[:PART_OF]->(d:Document)"
        " RETURN c.id AS chunk, d.external_id AS doc",
        c=collection_id,
    )
    return {f["chunk"]: f["doc"] for f in found}


@pytest.mark.integration
def test_fanout_is_capped_and_says_so(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    ingest(
        gql,
        name,
        *[
            {"externalId": f"d{i}", "text": f"Bob Jones visited Lisbon on trip {i}."}
            for i in range(5)
        ],
    )
    wait_until_graphed(stack, name, 5)
    cid = gql.data("query($n: String!) { collection(name: $n) { id } }", n=name)["collection"]["id"]
    bob = cypher(
        stack,
        "MATCH (e:Entity {collection_id: $c, name: 'Bob Jones'})"
        " RETURN e.id AS id, e.tenant_id AS tenant",
        c=cid,
    )[0]

    sub = subgraph(stack, bob["tenant"], [bob["id"]], hops=1, fanout=2, max_edges=1000)
    assert sub.truncated and len(sub.chunks) == 2


@pytest.mark.integration
def test_another_tenants_seed_reaches_nothing(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    ingest(gql, name, {"externalId": "a", "text": "Alice Smith met Bob Jones in Lisbon."})
    wait_until_graphed(stack, name, 1)
    cid = gql.data("query($n: String!) { collection(name: $n) { id } }", n=name)["collection"]["id"]
    alice = cypher(
        stack, "MATCH (e:Entity {collection_id: $c, name: 'Alice Smith'}) RETURN e.id AS id", c=cid
    )[0]

    sub = subgraph(stack, str(uuid.uuid4()), [alice["id"]], hops=2, fanout=10, max_edges=100)
    assert sub.edges == {}


@pytest.mark.integration
def test_discovery_gives_each_chunk_its_relationship_path(
    three_people: tuple[dict[str, Any], dict[str, str]], stack: Stack
) -> None:
    alice, docs = three_people

    async def discover() -> dict[str, RelationshipPath | None]:
        graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            tenant = Tenant(uuid.UUID(alice["tenant"]), "t")
            discovery = GraphDiscovery(graph, pool, MentionGraphs(pool, CopySettings(0, 10**6)))
            found, _ = await discovery.discover(tenant, GraphQuery([alice["id"]], 2, 10))
            paths = await discovery.paths(tenant, {d.chunk_id: d.trail for d in found}, NOW)
            return {d.chunk_id: paths.get(d.chunk_id) for d in found}
        finally:
            await pool.close()
            await graph.close()

    found = {docs[chunk]: path for chunk, path in asyncio.run(discover()).items()}
    assert set(found) == {"a", "b"}
    a, b = found["a"], found["b"]
    assert a is not None and b is not None
    assert a.steps == []
    assert [e["name"] for e in a.entities] == ["Alice Smith"]
    step = b.steps[0]
    assert (step.source["name"], step.target["name"]) == ("Alice Smith", "Bob Jones")
    assert step.edge.evidence[0].chunk_id in docs and docs[step.edge.evidence[0].chunk_id] == "a"
