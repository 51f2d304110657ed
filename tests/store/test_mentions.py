"""How many documents a name is mentioned in (store/mentions.fewest_documents): what the graph
leg's lead is shared among, counted per name across the entities it linked, and only in
documents the key may see."""

from __future__ import annotations

import asyncio
import uuid

import psycopg
import pytest

from app.localdb.stack import Stack
from store import mentions
from store.tenants import Tenant
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration


def test_the_fewest_documents_any_one_name_is_mentioned_in(
    gql: GraphQLClient, stack: Stack
) -> None:
    sections = [
        {"externalId": f"s{i}", "title": f"Harbor Guide (part {i})",
         "text": f"The Harbor Guide covers pier {i}. Tide tables are posted daily.",
         "accessScopes": ["staff"] if i < 2 else []}
        for i in range(5)
    ]  # fmt: skip
    rare = {"externalId": "r", "title": "Ferry", "text": "Greta Lindqvist runs the ferry."}
    name = graphed_collection(gql, stack, *sections, rare)
    found = dict(
        rows(
            stack,
            "SELECT e.name, e.id::text FROM entities e JOIN collections c"
            " ON c.id = e.collection_id WHERE c.name = %s",
            name,
        )
    )
    tenant_id = rows(stack, "SELECT tenant_id FROM collections WHERE name = %s", name)[0][0]
    guide, greta = found["Harbor Guide"], found["Greta Lindqvist"]
    whole, public = Tenant(tenant_id, "t"), Tenant(tenant_id, "t", ("public",))
    assert _fewest(stack, whole, {guide: "harbor guide"}) == 5
    assert _fewest(stack, whole, {guide: "harbor guide", greta: "greta lindqvist"}) == 1
    assert _fewest(stack, public, {guide: "harbor guide"}) == 0  # none has the key's scope
    assert _fewest(stack, whole, {}) is None
    assert _fewest(stack, whole, {str(uuid.uuid4()): "nobody"}) == 0
    # Two entities linked by one name (NER typed it two ways) count together.
    assert _fewest(stack, whole, {guide: "harbor", greta: "harbor"}) == 6


def _fewest(stack: Stack, tenant: Tenant, ids: dict[str, str]) -> int | None:
    async def count() -> int | None:
        async with await psycopg.AsyncConnection.connect(stack.endpoints.postgres_url) as conn:
            return await mentions.fewest_documents(conn, tenant, ids)

    return asyncio.run(count())
