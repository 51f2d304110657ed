"""The entities ingest's model found in each chunk are kept when the chunk is graphed and
read back for answers, within the tenant and the key's content scopes."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from app.knowledge.named import ChunkEntities
from app.localdb.stack import Stack
from app.settings import Settings
from ingest.extraction import Extractor, Named
from store.pool import open_pool
from store.tenants import Tenant
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration

T = TypeVar("T")
TEXT = "Marie Curie was born in Warsaw on 7 November 1867. She won two Nobel Prizes."


def _with_entities(stack: Stack, use: Callable[[ChunkEntities], Awaitable[T]]) -> T:
    async def run() -> T:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            return await use(ChunkEntities(pool))
        finally:
            await pool.close()

    return asyncio.run(run())


def _read(stack: Stack, tenant: Tenant, chunks: list[uuid.UUID]) -> dict[uuid.UUID, list[Named]]:
    return _with_entities(stack, lambda entities: entities.read(tenant, chunks))


class _Failing(Extractor):
    """The model, failing on any text that holds FAIL."""

    def chunk_named(self, chunks: list[tuple[int, str]]) -> list[list[Named]]:
        if any("FAIL" in text for _, text in chunks):
            raise RuntimeError("the model failed")
        return super().chunk_named(chunks)


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


def test_chunks_graphed_before_entities_were_kept_are_read_at_the_next_drain(
    gql: GraphQLClient, stack: Stack, graphed: tuple[Tenant, uuid.UUID, str]
) -> None:
    """One chunk the model fails on is left unread; the others are read all the same."""
    tenant, chunk, _ = graphed
    kept = _read(stack, tenant, [chunk])[chunk]
    failing = graphed_collection(gql, stack, {"externalId": "f", "text": "FAIL in Paris."})
    ((other,),) = rows(
        stack,
        "SELECT c.id FROM chunks c JOIN collections k ON k.id = c.collection_id"
        " WHERE k.name = %s AND c.kind = 'main'",
        failing,
    )
    rows(stack, "UPDATE chunks SET named = NULL WHERE id = ANY(%s) RETURNING id", [chunk, other])
    collections = [
        uuid.UUID(str(c))
        for (c,) in rows(
            stack, "SELECT collection_id FROM chunks WHERE id = ANY(%s)", [chunk, other]
        )
    ]
    extractor = _Failing(Settings.from_env({}).spacy_model)
    read = _with_entities(stack, lambda e: e.read_unread(lambda: extractor, collections))
    assert read == 1
    assert _read(stack, tenant, [chunk, other]) == {chunk: kept}


def test_once_every_collection_is_read_the_process_stops_looking(
    stack: Stack, graphed: tuple[Tenant, uuid.UUID, str]
) -> None:
    """Every chunk graphed since keeps its entities as it is graphed; a chunk left unread
    after the pass (the model failed on it) waits for the next start."""
    tenant, chunk, _ = graphed
    extractor = Extractor(Settings.from_env({}).spacy_model)

    async def rounds(entities: ChunkEntities) -> tuple[int, int]:
        await entities.read_unread(lambda: extractor)
        rows(stack, "UPDATE chunks SET named = NULL WHERE id = %s RETURNING id", chunk)
        return await entities.read_unread(lambda: extractor), len(
            await entities.read(tenant, [chunk])
        )

    assert _with_entities(stack, rounds) == (0, 0)
    assert _with_entities(stack, lambda e: e.read_unread(lambda: extractor)) >= 1  # a new start
    assert chunk in _read(stack, tenant, [chunk])
