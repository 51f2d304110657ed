"""Every GraphQL operation needs a valid X-API-Key."""

from __future__ import annotations

import httpx
import pytest

from tests.graphql_client import GraphQLClient

pytestmark = pytest.mark.integration

OPERATIONS = [
    "{ collections { name } }",
    '{ collection(name: "x") { name } }',
    "{ health { ok } }",
    'mutation { createCollection(name: "x") { id } }',
]


@pytest.mark.parametrize("query", OPERATIONS)
@pytest.mark.parametrize("key", [None, "", "trk_not-a-real-key", "x" * 5000])
def test_missing_or_invalid_key_is_unauthenticated(
    http: httpx.Client, query: str, key: str | None
) -> None:
    body = GraphQLClient(http, key).post(query)
    assert body["data"] is None
    assert [e["extensions"]["code"] for e in body["errors"]] == ["UNAUTHENTICATED"]


def test_rejected_create_stores_nothing(http: httpx.Client, gql: GraphQLClient) -> None:
    GraphQLClient(http, "trk_wrong").post('mutation { createCollection(name: "sneaky") { id } }')
    assert gql.data("{ collections { name } }")["collections"] == []


def test_introspection_needs_no_key(http: httpx.Client) -> None:
    body = GraphQLClient(http, None).post("{ __schema { queryType { name } } }")
    assert body["data"]["__schema"]["queryType"]["name"] == "Query"
