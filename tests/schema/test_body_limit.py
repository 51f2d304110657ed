"""The request body cap (schema/body_limit.py): HTTP 413 with PAYLOAD_TOO_LARGE, before
parsing, with room for ingest mutations."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from starlette.responses import JSONResponse

from app.settings import Settings
from schema import schema
from schema._operations import INGEST_FIELDS
from schema.body_limit import BodyLimit, Message
from tests.graphql_client import GraphQLClient
from tests.helpers import INGEST, new_collection

SERVING = Settings.from_env(
    {"TRELLIS_MAX_BODY_BYTES": "1024", "TRELLIS_MAX_INGEST_BODY_BYTES": "4096"}
).serving
SEARCH = 'query($q: String!) { search(input: {collections: ["c"], query: $q}) { total } }'


class _Echo:
    """Answers with the size of the body it was given."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        await JSONResponse({"read": len(body)})(scope, receive, send)


def _client() -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=BodyLimit(_Echo(), SERVING))
    return httpx.AsyncClient(transport=transport, base_url="http://test")


def _request(query: str, **variables: object) -> bytes:
    return json.dumps({"query": query, "variables": variables}).encode()


async def test_a_body_under_the_cap_reaches_the_app_whole() -> None:
    async with _client() as client:
        response = await client.post("/graphql", content=_request(SEARCH, q="x" * 500))
    assert response.json() == {"read": len(_request(SEARCH, q="x" * 500))}


async def test_a_query_over_the_cap_gets_413_naming_the_limit() -> None:
    async with _client() as client:
        response = await client.post("/graphql", content=_request(SEARCH, q="x" * 2000))
    assert response.status_code == 413
    [error] = response.json()["errors"]
    assert error["extensions"] == {"code": "PAYLOAD_TOO_LARGE", "limit": 1024}
    assert "1024 bytes" in error["message"]


async def test_an_ingest_mutation_may_use_the_larger_cap_and_no_more() -> None:
    docs = [{"externalId": "a", "text": "y" * 2000}]
    async with _client() as client:
        fits = await client.post("/graphql", content=_request(INGEST, c="c", docs=docs))
        docs[0]["text"] = "y" * 5000
        over = await client.post("/graphql", content=_request(INGEST, c="c", docs=docs))
    assert fits.status_code == 200 and over.status_code == 413
    assert over.json()["errors"][0]["extensions"]["limit"] == 4096


async def test_a_query_riding_beside_an_ingest_mutation_gets_the_small_cap() -> None:
    both = INGEST.replace("ingestDocuments(", "collections { name } ingestDocuments(")
    docs = [{"externalId": "a", "text": "y" * 2000}]
    async with _client() as client:
        response = await client.post("/graphql", content=_request(both, c="c", docs=docs))
    assert response.status_code == 413


async def test_a_declared_length_over_the_ingest_cap_is_refused_before_reading() -> None:
    """The answer goes first; what the client still sends is then read and discarded, so
    closing does not reset a connection the client is writing to (and lose the 413)."""
    events: list[str] = []
    blocks = [b"x" * 512] * 3

    async def receive() -> Message:
        events.append("read")
        return {"type": "http.request", "body": blocks.pop(), "more_body": bool(blocks)}

    async def send(message: Message) -> None:
        events.append(message["type"] + (" (end)" if not message.get("more_body", 1) else ""))

    scope = {"type": "http", "method": "POST", "headers": [(b"content-length", b"60000000")]}
    await BodyLimit(_Echo(), SERVING)(scope, receive, send)
    assert events == [
        "http.response.start",
        "http.response.body",
        *["read"] * 3,
        "http.response.body (end)",
    ]


async def test_a_body_whose_query_ingests_nothing_is_refused_where_it_crosses_the_cap() -> None:
    body = _request(SEARCH, q="x" * 3000)
    blocks = [body[i : i + 512] for i in range(0, len(body), 512)]
    read: list[bytes] = []

    async def receive() -> Message:
        read.append(blocks[len(read)])
        return {"type": "http.request", "body": read[-1], "more_body": len(read) < len(blocks)}

    sent: list[Message] = []
    read_before_answer: list[int] = []

    async def send(message: Message) -> None:
        sent.append(message)
        read_before_answer.append(len(read))

    await BodyLimit(_Echo(), SERVING)({"type": "http", "method": "POST"}, receive, send)
    assert sent[0]["status"] == 413 and read_before_answer[0] == 3 < len(blocks)
    assert json.loads(sent[1]["body"])["errors"][0]["extensions"]["limit"] == 1024


async def test_an_ingest_carries_its_documents_as_variables_not_in_the_query_text() -> None:
    inline = 'mutation { ingestDocuments(collection: "c", documents: [{text: "%s"}]) { done } }'
    async with _client() as client:
        response = await client.post("/graphql", content=_request(inline % ("y" * 2000)))
    assert response.status_code == 413
    assert response.json()["errors"][0]["extensions"]["limit"] == 1024


def test_the_ingest_fields_are_the_schema_s_ingest_mutations() -> None:
    mutations = schema._schema.mutation_type
    assert mutations is not None
    assert set(mutations.fields) >= INGEST_FIELDS
    assert {f for f in mutations.fields if f.startswith("ingest")} == INGEST_FIELDS


@pytest.mark.integration
def test_the_served_api_refuses_a_two_megabyte_search(
    http: httpx.Client, gql: GraphQLClient
) -> None:
    response = http.post(
        "/graphql",
        content=_request(SEARCH, q="x" * 2_000_000),
        headers={"X-API-Key": gql.api_key or ""},
    )
    assert response.status_code == 413
    assert response.json()["errors"][0]["extensions"]["code"] == "PAYLOAD_TOO_LARGE"
    collection = new_collection(gql)  # the server serves on
    assert collection
