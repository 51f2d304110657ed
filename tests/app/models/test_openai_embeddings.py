"""The OpenAI-compatible embeddings provider, against a local server speaking the protocol."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import numpy as np
import pytest

from app.localdb.stack import Stack
from app.models.openai_embeddings import EmbeddingProviderError, OpenAIEmbeddings
from app.settings import Settings
from schema.serving import running_server
from tests.fake_embeddings import DIMENSION, fake_embeddings_server, fake_vector, url_of
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, rows


def test_vectors_come_back_in_order_normalised_and_batched() -> None:
    with fake_embeddings_server() as server:
        provider = OpenAIEmbeddings(url_of(server), "fake-embed", "sk-test", None)
        texts = [f"text {i}" for i in range(150)]
        vectors = provider.embed(texts)
    expected = np.array([fake_vector(t) for t in texts], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert vectors.shape == (150, DIMENSION) and np.allclose(vectors, expected, atol=1e-6)
    bodies = [r["body"] for r in server.requests if r["body"]["input"] != ["dimension probe"]]
    assert [len(b["input"]) for b in bodies] == [64, 64, 22]
    assert all(
        r["path"] == "/v1/embeddings" and r["auth"] == "Bearer sk-test" for r in server.requests
    )


def test_transient_errors_are_retried() -> None:
    with fake_embeddings_server() as server:
        server.failures = [503, 429]
        provider = OpenAIEmbeddings(url_of(server), "fake-embed", None, DIMENSION)
        assert provider.embed(["hello"]).shape == (1, DIMENSION)
        assert len(server.requests) == 3


def test_errors_are_reported() -> None:
    with fake_embeddings_server() as server:
        server.failures = [401]
        provider = OpenAIEmbeddings(url_of(server), "fake-embed", None, DIMENSION)
        with pytest.raises(EmbeddingProviderError, match="answered 401"):
            provider.embed(["hello"])
    unreachable = OpenAIEmbeddings("http://127.0.0.1:9/v1", "m", None, DIMENSION, timeout=1)
    with pytest.raises(EmbeddingProviderError, match="unreachable"):
        unreachable.embed(["hello"])


@pytest.fixture(scope="module")
def remote_client(stack: Stack, tenant_key_module: str) -> Iterator[GraphQLClient]:
    with fake_embeddings_server() as server:
        env = {
            **stack.env(),
            "TRELLIS_EMBEDDINGS_URL": url_of(server),
            "TRELLIS_EMBEDDINGS_MODEL": "fake-embed",
        }
        remote = Stack(
            stack.data_dir, Settings.from_env(env), stack.endpoints, stack.neo4j, stack.postgres
        )
        with running_server(remote) as url, httpx.Client(base_url=url, timeout=60) as http:
            yield GraphQLClient(http, tenant_key_module)


@pytest.mark.integration
def test_collection_pinned_to_the_remote_model(remote_client: GraphQLClient, stack: Stack) -> None:
    name = f"remote-{uuid.uuid4().hex[:6]}"
    created = remote_client.data(
        'mutation($n: String!) { createCollection(name: $n, embeddingModel: "fake-embed")'
        " { embeddingProfile { model dimension } } }",
        n=name,
    )
    assert created["createCollection"]["embeddingProfile"] == {
        "model": "fake-embed",
        "dimension": DIMENSION,
    }
    outcome = ingest(remote_client, name, {"externalId": "d", "text": "Remote vectors."})[
        "outcomes"
    ][0]
    assert outcome["status"] == "INDEXED"
    dims = rows(
        stack,
        "SELECT DISTINCT vector_dims(embedding) FROM chunks WHERE document_id = %s"
        " AND kind = 'small'",
        outcome["documentId"],
    )
    assert dims == [(DIMENSION,)]


@pytest.mark.integration
def test_unknown_model_is_a_profile_mismatch(remote_client: GraphQLClient) -> None:
    code = remote_client.error_code(
        'mutation { createCollection(name: "x", embeddingModel: "gpt-nope") { id } }'
    )
    assert code == "EMBEDDING_PROFILE_MISMATCH"


@pytest.mark.integration
def test_ingest_into_a_collection_whose_model_is_gone(
    remote_client: GraphQLClient, gql: GraphQLClient
) -> None:
    """A collection pinned to a model this server no longer offers refuses new documents."""
    name = f"orphan-{uuid.uuid4().hex[:6]}"
    remote_client.data(
        'mutation($n: String!) { createCollection(name: $n, embeddingModel: "fake-embed") { id } }',
        n=name,
    )
    local = GraphQLClient(gql.http, remote_client.api_key)
    outcome = ingest(local, name, {"externalId": "d", "text": "No model here."})["outcomes"][0]
    assert (outcome["status"], outcome["code"]) == ("FAILED", "EMBEDDING_PROFILE_MISMATCH")
