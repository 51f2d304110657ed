"""The entities ingest's model found in each chunk are kept when the chunk is graphed and
read back for answers, within the tenant and the key's content scopes."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from app.knowledge.named import ChunkEntities
from app.localdb.stack import Stack
from ingest.extraction import Named
from store.pool import open_pool
from store.tenants import Tenant
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration

TEXT = "Marie Curie was born in Warsaw on 7 November 1867. She won two Nobel Prizes."


def _read(stack: Stack, tenant: Tenant, chunks: list[uuid.UUID]) -> dict[uuid.UUID, list[Named]]:
    async def run() -> dict[uuid.UUID, list[Named]]:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            return await ChunkEntities(pool).read(tenant, chunks)
        finally:
            await pool.close()

    return asyncio.run(run())


@pytest.fixture()
def graphed(gql: GraphQLClient, stack: Stack) -> tuple[Tenant, uuid.UUID, str]:
    """The tenant, the one main chunk and its text of a graphed document with scope org:a."""
    doc = {"externalId": "curie", "title": "Marie Curie", "text": TEXT, "accessScopes": ["org:a"]}
    name = graphed_collection(gql, stack, doc)
    ((tenant_id, tenant_name, chunk, content),) = rows(
        stack,
        "SELECT t.id, t.name, c.id, c.content FROM chunks c JOIN collections k"
        " ON k.id = c.collection_id JOIN tenants t ON t.id = c.tenant_id"
        " WHERE k.name = %s AND c.kind = 'main'",
        name,
    )
    return Tenant(tenant_id, tenant_name), chunk, content


def test_a_graphed_chunk_s_entities_are_read_back_in_its_own_offsets(
    stack: Stack, graphed: tuple[Tenant, uuid.UUID, str]
) -> None:
    tenant, chunk, content = graphed
    named = _read(stack, tenant, [chunk])[chunk]
    assert all(content[n.start : n.end] == n.text for n in named)
    labels = {n.text: n.label for n in named}
    assert labels["Marie Curie"] == "PERSON" and labels["7 November 1867"] == "DATE"
    assert labels["two"] == "CARDINAL"


def test_other_tenants_and_other_scopes_read_nothing(
    stack: Stack, graphed: tuple[Tenant, uuid.UUID, str]
) -> None:
    tenant, chunk, _ = graphed
    assert _read(stack, Tenant(uuid.uuid4(), "stranger"), [chunk]) == {}
    assert _read(stack, Tenant(tenant.id, tenant.name, ("org:b",)), [chunk]) == {}
    assert chunk in _read(stack, Tenant(tenant.id, tenant.name, ("org:a",)), [chunk])


def test_a_chunk_not_yet_read_is_left_out(
    stack: Stack, graphed: tuple[Tenant, uuid.UUID, str]
) -> None:
    """The composer runs the model itself on such a chunk's sentences."""
    tenant, chunk, _ = graphed
    rows(stack, "UPDATE chunks SET named = NULL WHERE id = %s RETURNING id", chunk)
    assert _read(stack, tenant, [chunk]) == {}
