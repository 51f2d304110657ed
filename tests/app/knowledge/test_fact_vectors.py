"""Fact vectors are filled in after the graph step: an embedder that fails leaves the facts
waiting, and the next round embeds them with the collection's own model."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import numpy as np
import pytest

from app.knowledge.fact_vectors import FactVectors
from app.localdb.stack import Stack, make_key
from app.models.embedders import Embedders
from app.settings import EmbeddingsSettings
from store.pool import open_pool
from tests.fake_embeddings import DIMENSION, fake_embeddings_server, fake_vector, url_of
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration

MODEL = "fake-fact-model"  # unknown to the server under test, whose projector leaves it be
TEXTS = [
    "Northwind Corporation was founded by John Smith in Chicago.",
    "John Smith was born in Dublin.",
]


def _embed_waiting(stack: Stack, url: str, collection_id: uuid.UUID) -> int:
    async def run() -> int:
        pool = await open_pool(stack.endpoints.postgres_url, 2, 10)
        try:
            embedders = Embedders(EmbeddingsSettings(url, MODEL, None, DIMENSION))
            return await FactVectors(pool, embedders).embed_waiting([collection_id])
        finally:
            await pool.close()

    return asyncio.run(run())


@pytest.fixture()
def moved_collection(http: httpx.Client, stack: Stack) -> uuid.UUID:
    """A graphed collection re-pinned to MODEL, its facts' vectors cleared."""
    client = GraphQLClient(http, make_key(stack, f"factvec-{uuid.uuid4().hex[:6]}"))
    docs = [{"externalId": f"d{i}", "text": text} for i, text in enumerate(TEXTS)]
    name = graphed_collection(client, stack, *docs)
    (collection_id,), *_ = rows(stack, "SELECT id FROM collections WHERE name = %s", name)
    rows(
        stack,
        "WITH c AS (UPDATE collections SET embedding_model = %s WHERE id = %s RETURNING id)"
        " UPDATE facts SET embedding = NULL WHERE collection_id IN (SELECT id FROM c)"
        " RETURNING id",
        MODEL,
        collection_id,
    )
    return uuid.UUID(str(collection_id))


def _texts_and_vectors(stack: Stack, collection_id: uuid.UUID) -> list[tuple[str, str | None]]:
    return rows(
        stack,
        "SELECT s.name || ' ' || f.predicate || ' ' || o.name, f.embedding::text FROM facts f"
        " JOIN entities s ON s.id = f.subject_id JOIN entities o ON o.id = f.object_id"
        " WHERE f.collection_id = %s ORDER BY 1",
        collection_id,
    )


def test_a_failing_embedder_leaves_facts_waiting_and_the_next_round_embeds_them(
    stack: Stack, moved_collection: uuid.UUID
) -> None:
    facts = _texts_and_vectors(stack, moved_collection)
    assert len(facts) == 2 and all(vector is None for _, vector in facts)

    assert _embed_waiting(stack, "http://127.0.0.1:9/v1", moved_collection) == 0
    assert all(vector is None for _, vector in _texts_and_vectors(stack, moved_collection))

    with fake_embeddings_server() as server:
        assert _embed_waiting(stack, url_of(server), moved_collection) == 2
    for text, vector in _texts_and_vectors(stack, moved_collection):
        assert vector is not None
        stored = [float(x) for x in vector.strip("[]").split(",")]
        expected = np.array(fake_vector(text))
        assert stored == pytest.approx(expected / np.linalg.norm(expected), abs=1e-6)
