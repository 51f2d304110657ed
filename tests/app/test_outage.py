"""A database going down while serving: SERVICE_UNAVAILABLE naming it, never a traceback.

These tests stop and restart databases, so they get a stack of their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from app.localdb.stack import Stack, local_stack, make_key
from schema.serving import running_server
from tests.graph_helpers import wait_until_graphed
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def outage_stack() -> Iterator[Stack]:
    with local_stack(TRELLIS_DB_TIMEOUT_SECONDS="2") as stack:
        yield stack


@pytest.fixture(scope="module")
def client(outage_stack: Stack) -> Iterator[GraphQLClient]:
    with running_server(outage_stack) as url, httpx.Client(base_url=url, timeout=60) as http:
        yield GraphQLClient(http, make_key(outage_stack, "outage"))


def _assert_unavailable(body: dict[str, object], backend: str) -> None:
    errors = body["errors"]
    assert isinstance(errors, list)
    extensions = {"code": "SERVICE_UNAVAILABLE", "backend": backend, "retryAfterSeconds": 1}
    assert errors[0]["extensions"] == extensions
    assert errors[0]["message"] == f"{backend} is unavailable"
    assert "Traceback" not in str(body)


def test_neo4j_down_then_back(client: GraphQLClient, outage_stack: Stack) -> None:
    outage_stack.neo4j.stop()
    try:
        created = client.data('mutation { createCollection(name: "while-down") { id } }')
        assert created["createCollection"]["id"]
        body = client.post('{ collection(name: "while-down") { name graph { name } } }')
        _assert_unavailable(body, "neo4j")
        ready = client.http.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["down"] == ["neo4j"]
    finally:
        outage_stack.neo4j.start()
    _wait_for_projection(client, "while-down")
    assert client.http.get("/readyz").status_code == 200


def graphed_collection(client: GraphQLClient, stack: Stack, name: str, text: str) -> None:
    """A collection holding one document, graphed, so the graph leg has entities to seek."""
    client.data("mutation($n: String!) { createCollection(name: $n) { id } }", n=name)
    ingest(client, name, {"externalId": "a", "text": text})
    wait_until_graphed(stack, name, 1)


SEARCH = (
    "query($i: SearchInput!) { search(input: $i) { degraded missingLegs"
    " hits { discoveryMethods document { path } } } }"
)


def test_search_degrades_without_neo4j(client: GraphQLClient, outage_stack: Stack) -> None:
    graphed_collection(client, outage_stack, "degrade", "Ada Lovelace wrote the first program.")
    query = {"collections": ["degrade"], "query": "Ada Lovelace program"}
    outage_stack.neo4j.stop()
    try:
        found = client.data(SEARCH, i=query)["search"]
        assert found["degraded"] and found["missingLegs"] == ["GRAPH"]
        assert [h["document"]["path"] for h in found["hits"]] == ["a"]
        closed = client.post(SEARCH, i={**query, "failClosed": True})
        assert closed["errors"][0]["extensions"]["code"] == "DEGRADED_RESULT"
        graph_only = client.post(SEARCH, i={**query, "mode": "GRAPH"})
        extensions = graph_only["errors"][0]["extensions"]
        assert extensions["code"] == "SERVICE_UNAVAILABLE" and extensions["leg"] == "GRAPH"
        keyword = client.data(SEARCH, i={**query, "mode": "KEYWORD"})["search"]
        assert not keyword["degraded"] and keyword["hits"]
    finally:
        outage_stack.neo4j.start()


ANSWER = (
    "query($i: AnswerInput!) { answer(input: $i) { text degraded missingLegs abstained"
    " brief { shortAnswer } } }"
)


def test_answers_degrade_without_neo4j(client: GraphQLClient, outage_stack: Stack) -> None:
    text = "Ada Lovelace wrote the first computer program."
    graphed_collection(client, outage_stack, "degrade-answer", text)
    # The question names a known entity, so the graph leg needs Neo4j.
    query = {"collections": ["degrade-answer"], "query": "What did Ada Lovelace write?"}
    outage_stack.neo4j.stop()
    try:
        answer = client.data(ANSWER, i=query)["answer"]
        assert answer["degraded"] and answer["missingLegs"] == ["GRAPH"]
        assert not answer["abstained"] and "Ada Lovelace wrote" in answer["text"]
        closed = client.post(ANSWER, i={**query, "failClosed": True})
        assert closed["errors"][0]["extensions"]["code"] == "DEGRADED_RESULT"
    finally:
        outage_stack.neo4j.start()


def test_postgres_down_then_back(client: GraphQLClient, outage_stack: Stack) -> None:
    outage_stack.postgres.stop()
    try:
        _assert_unavailable(client.post("{ collections { name } }"), "postgres")
        ready = client.http.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["down"] == ["postgres"]
    finally:
        outage_stack.postgres.start()
    _wait_until(lambda: "errors" not in client.post("{ collections { name } }"))


def _wait_for_projection(client: GraphQLClient, name: str) -> None:
    """The outbox row written while Neo4j was down reaches the graph once it is back."""
    query = f'{{ collection(name: "{name}") {{ graph {{ name }} }} }}'

    def projected() -> bool:
        body = client.post(query)
        return "errors" not in body and body["data"]["collection"]["graph"] == {"name": name}

    _wait_until(projected)


def _wait_until(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the service did not recover")
        time.sleep(0.5)
