"""The `/rerank` client, against a local server speaking the protocol, and search using it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from app.localdb.stack import Stack
from app.models.reranker import Reranker, RerankerError
from app.settings import Settings
from schema.serving import running_server
from tests.fake_reranker import fake_reranker_server, url_of
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection


def scores(reranker: Reranker, query: str, documents: list[str]) -> list[float]:
    async def ask() -> list[float]:
        try:
            return await reranker.scores(query, documents)
        finally:
            await reranker.close()

    return asyncio.run(ask())


def test_scores_come_back_in_document_order() -> None:
    with fake_reranker_server() as server:
        found = scores(
            Reranker(url_of(server), "rr", "key"), "red apple", ["pear", "red apple", "red"]
        )
        assert found == [0.0, 2.0, 1.0]
        body = server.requests[0]["body"]
        assert server.requests[0]["path"] == "/rerank" and body["model"] == "rr"
        assert body["top_n"] == 3


def test_a_transient_error_is_retried_once_and_others_raise() -> None:
    with fake_reranker_server() as server:
        server.failures = [503]
        assert scores(Reranker(url_of(server), "rr", None), "a", ["a"]) == [1.0]
        server.failures = [500, 500]
        with pytest.raises(RerankerError, match="answered 500"):
            scores(Reranker(url_of(server), "rr", None), "a", ["a"])
    with pytest.raises(RerankerError, match="unreachable"):
        scores(Reranker("http://127.0.0.1:9", "rr", None, timeout=1), "a", ["a"])


def test_settings_need_url_and_model_together() -> None:
    from app.errors import SettingsError

    with pytest.raises(SettingsError, match="TRELLIS_RERANKER_MODEL"):
        Settings.from_env({"TRELLIS_RERANKER_URL": "http://x"})
    with pytest.raises(SettingsError, match="http"):
        Settings.from_env({"TRELLIS_RERANKER_URL": "ftp://x", "TRELLIS_RERANKER_MODEL": "m"})


@pytest.fixture(scope="module")
def reranked_client(stack: Stack, tenant_key_module: str) -> Iterator[tuple[GraphQLClient, object]]:
    with fake_reranker_server() as server:
        env = {
            **stack.env(),
            "TRELLIS_RERANKER_URL": url_of(server),
            "TRELLIS_RERANKER_MODEL": "rr",
        }
        remote = Stack(
            stack.data_dir, Settings.from_env(env), stack.endpoints, stack.neo4j, stack.postgres
        )
        with running_server(remote) as url, httpx.Client(base_url=url, timeout=60) as http:
            yield GraphQLClient(http, tenant_key_module), server


@pytest.mark.integration
def test_hybrid_search_follows_the_reranker(reranked_client: tuple[GraphQLClient, object]) -> None:
    gql, server = reranked_client
    name = new_collection(gql)
    ingest(
        gql,
        name,
        {"externalId": "one", "text": "Otters swim in cold rivers."},
        {"externalId": "two", "text": "Otters swim in cold rivers, the preferred ones."},
    )
    query = "query($i: SearchInput!) { search(input: $i) { hits { document { path } } } }"
    found = gql.data(query, i={"collections": [name], "query": "otters rivers"})
    assert [h["document"]["path"] for h in found["search"]["hits"]][:2] == ["two", "one"]
    assert any(r["path"] == "/rerank" for r in server.requests)  # type: ignore[attr-defined]
