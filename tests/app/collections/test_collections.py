"""Collections round-trip through PostgreSQL (system of record) and Neo4j (projection)."""

from __future__ import annotations

import asyncio

import pytest

from app.localdb.stack import Stack
from graph.collections import find_collection
from graph.driver import open_graph
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration

CREATE = """mutation($name: String!) {
  createCollection(name: $name) { id name embeddingProfile { model dimension } graph { name } }
}"""
READ = """query($name: String!) {
  collection(name: $name) { id name createdAt graph { name projectedAt } }
}"""


def test_create_then_read_back_from_both_databases(gql: GraphQLClient, stack: Stack) -> None:
    created = gql.data(CREATE, name="Policies 2026")["createCollection"]
    assert created["embeddingProfile"] == {"model": "all-MiniLM-L6-v2", "dimension": 384}
    assert created["graph"] == {"name": "Policies 2026"}

    read = gql.data(READ, name="Policies 2026")["collection"]
    assert read["id"] == created["id"]
    assert read["graph"]["name"] == "Policies 2026"
    assert read["graph"]["projectedAt"]
    listed = gql.data("{ collections { name } }")["collections"]
    assert listed == [{"name": "Policies 2026"}]


def test_graph_node_is_written_in_neo4j(gql: GraphQLClient, stack: Stack) -> None:
    created = gql.data(CREATE, name="incidents")["createCollection"]
    tenant_id = _tenant_of(stack, created["id"])

    async def lookup() -> str | None:
        graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 5)
        try:
            node = await find_collection(graph, tenant_id, created["id"])
        finally:
            await graph.close()
        return None if node is None else node.name

    assert asyncio.run(lookup()) == "incidents"


def test_duplicate_name_is_already_exists(gql: GraphQLClient) -> None:
    gql.data(CREATE, name="contracts")
    assert gql.error_code(CREATE, name="contracts") == "ALREADY_EXISTS"
    assert gql.error_code(CREATE, name="  contracts  ") == "ALREADY_EXISTS"


@pytest.mark.parametrize("name", ["", "   ", "x" * 201, "bad\x00name", "tab\tname"])
def test_bad_names_are_bad_input_and_store_nothing(gql: GraphQLClient, name: str) -> None:
    body = gql.post(CREATE, name=name)
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "field": "name"}
    assert gql.data("{ collections { name } }")["collections"] == []


def test_unknown_collection_is_not_found(gql: GraphQLClient) -> None:
    assert gql.error_code(READ, name="never-made") == "NOT_FOUND"


def _tenant_of(stack: Stack, collection_id: str) -> str:
    return str(rows(stack, "SELECT tenant_id FROM collections WHERE id = %s", collection_id)[0][0])
