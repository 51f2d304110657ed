"""Read the Neo4j graph of a collection for assertions."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, LiteralString

from app.localdb.stack import Stack
from graph.driver import open_graph
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection, rows


def cypher(stack: Stack, query: LiteralString, **params: Any) -> list[dict[str, Any]]:
    async def read() -> list[dict[str, Any]]:
        graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
        try:
            return await graph.read(query, **params)
        finally:
            await graph.close()

    return asyncio.run(read())


def wait_until_graphed(stack: Stack, collection: str, documents: int) -> None:
    query = (
        "SELECT count(*) FROM documents d JOIN collections c ON c.id = d.collection_id"
        " WHERE c.name = %s AND d.status = 'GRAPHED' AND d.graphed_version = d.version"
    )
    eventually(lambda: rows(stack, query, collection) == [(documents,)])
    # Query-to-fact matching reads the facts' vectors, embedded once the graph step is done.
    unembedded = (
        "SELECT count(*) FROM facts f JOIN collections c ON c.id = f.collection_id"
        " WHERE c.name = %s AND f.embedding IS NULL AND f.invalidated_at IS NULL"
    )
    eventually(lambda: rows(stack, unembedded, collection) == [(0,)])


def graphed_collection(gql: GraphQLClient, stack: Stack, *docs: dict[str, Any]) -> str:
    """A new collection holding `docs`, once every one is graphed."""
    name = new_collection(gql)
    ingest(gql, name, *docs)
    wait_until_graphed(stack, name, len(docs))
    return name


def eventually(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition never held"
        time.sleep(0.2)


def snapshot(stack: Stack, collection_id: str) -> dict[str, Any]:
    """Nodes and relationships of a collection, with their properties (ids included)."""
    nodes = cypher(
        stack,
        "MATCH (n) WHERE n.collection_id = $c OR n.id = $c"
        " RETURN labels(n) AS labels, properties(n) AS props",
        c=collection_id,
    )
    rels = cypher(
        stack,
        "MATCH (a)-[r]->(b) WHERE a.collection_id = $c"
        " RETURN type(r) AS type, a.id AS a, b.id AS b, properties(r) AS props",
        c=collection_id,
    )
    key = repr
    return {"nodes": sorted(key(n) for n in nodes), "rels": sorted(key(r) for r in rels)}


def attendee_names(repeat: int = 1) -> str:
    """60 x `repeat` people named in one sentence's list: an entity flood for cap tests."""
    lasts = (
        "Smith",
        "Brown",
        "Garcia",
        "Chen",
        "Novak",
        "Cohen",
        "Sato",
        "Kumar",
        "Rossi",
        "Dubois",
        "Silva",
        "Jensen",
    )
    firsts = ("John", "Mary", "Ahmed", "Li", "Olga")
    return ", ".join(f"{first} {last}" for first in firsts for last in lasts * repeat)


def counts(stack: Stack, collection: str) -> dict[str, object]:
    cid = rows(stack, "SELECT id::text FROM collections WHERE name = %s", collection)[0][0]
    nodes = cypher(
        stack,
        "MATCH (n {collection_id: $c}) RETURN labels(n) AS labels,"
        " count(*) AS n, sum(size(keys(n))) AS props ORDER BY labels",
        c=cid,
    )
    rels = cypher(
        stack,
        "MATCH (a {collection_id: $c})-[r]->() RETURN type(r) AS type,"
        " count(*) AS n, sum(size(keys(r))) AS props ORDER BY type",
        c=cid,
    )
    facts = rows(stack, "SELECT count(*) FROM facts WHERE collection_id = %s", cid)
    return {"nodes": nodes, "rels": rels, "facts": facts}


def graphed(stack: Stack, collection: str) -> int:
    """Documents of the collection (by name) whose status is GRAPHED."""
    return int(
        rows(
            stack,
            "SELECT count(*) FROM documents d JOIN collections c ON"
            " c.id = d.collection_id WHERE c.name = %s AND d.status = 'GRAPHED'",
            collection,
        )[0][0]
    )
