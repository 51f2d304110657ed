"""Indexed documents reach Neo4j through the outbox; deletes take them out again."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from app.localdb.stack import Stack
from graph.driver import open_graph
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection

pytestmark = pytest.mark.integration


def _documents_in_graph(stack: Stack, collection_id: str) -> list[dict[str, Any]]:
    async def read() -> list[dict[str, Any]]:
        graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
        try:
            return await graph.read(
                "MATCH (d:Document {collection_id: $c})-[:IN_COLLECTION]->(:Collection {id: $c})"
                " RETURN d.external_id AS external_id, d.title AS title ORDER BY external_id",
                c=collection_id,
            )
        finally:
            await graph.close()

    return asyncio.run(read())


def _eventually(stack: Stack, collection_id: str, expected: list[dict[str, Any]]) -> None:
    deadline = time.monotonic() + 30
    while (found := _documents_in_graph(stack, collection_id)) != expected:
        assert time.monotonic() < deadline, found
        time.sleep(0.2)


def test_documents_are_projected_and_removed(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    cid = gql.data("query($n: String!) { collection(name: $n) { id } }", n=name)["collection"]["id"]
    ingest(
        gql,
        name,
        {"externalId": "a", "title": "Alpha", "text": "First."},
        {"externalId": "b", "title": "Beta", "text": "Second."},
    )
    _eventually(
        stack, cid, [{"external_id": "a", "title": "Alpha"}, {"external_id": "b", "title": "Beta"}]
    )
    gql.data(
        'mutation($c: String!) { deleteDocument(collection: $c, externalId: "a") { deleted } }',
        c=name,
    )
    _eventually(stack, cid, [{"external_id": "b", "title": "Beta"}])
    gql.data("mutation($n: String!) { deleteCollection(name: $n) }", n=name)
    _eventually(stack, cid, [])
