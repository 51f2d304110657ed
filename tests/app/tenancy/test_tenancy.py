"""Tenant B's key cannot see or touch tenant A's collection by any query or argument."""

from __future__ import annotations

import uuid

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from tests.graphql_client import GraphQLClient

pytestmark = pytest.mark.integration


@pytest.fixture
def tenants(http: httpx.Client, stack: Stack) -> tuple[GraphQLClient, GraphQLClient]:
    suffix = uuid.uuid4().hex[:8]
    return (
        GraphQLClient(http, make_key(stack, f"alpha-{suffix}")),
        GraphQLClient(http, make_key(stack, f"beta-{suffix}")),
    )


def test_other_tenants_collection_is_invisible(
    tenants: tuple[GraphQLClient, GraphQLClient],
) -> None:
    alpha, beta = tenants
    created = alpha.data('mutation { createCollection(name: "secret-plans") { id } }')
    assert beta.data("{ collections { id name } }")["collections"] == []
    assert beta.error_code('{ collection(name: "secret-plans") { id } }') == "NOT_FOUND"
    # The same error as for a name nobody has: existence does not leak.
    missing = beta.post('{ collection(name: "no-such-thing") { id } }')["errors"][0]
    leaked = beta.post('{ collection(name: "secret-plans") { id } }')["errors"][0]
    assert missing["extensions"] == leaked["extensions"]
    assert created["createCollection"]["id"] not in str(beta.post("{ collections { id } }"))


def test_names_are_per_tenant_and_graphs_stay_apart(
    tenants: tuple[GraphQLClient, GraphQLClient],
) -> None:
    alpha, beta = tenants
    a = alpha.data('mutation { createCollection(name: "shared-name") { id graph { name } } }')
    b = beta.data('mutation { createCollection(name: "shared-name") { id graph { name } } }')
    assert a["createCollection"]["id"] != b["createCollection"]["id"]
    read_a = alpha.data('{ collection(name: "shared-name") { id graph { name } } }')
    read_b = beta.data('{ collection(name: "shared-name") { id graph { name } } }')
    assert read_a["collection"]["id"] == a["createCollection"]["id"]
    assert read_b["collection"]["id"] == b["createCollection"]["id"]
    assert len(alpha.data("{ collections { id } }")["collections"]) == 1
