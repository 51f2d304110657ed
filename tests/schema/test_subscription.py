"""The WebSocket path end to end, over graphql-transport-ws only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from tests.graphql_ws import open_ws, subscribe, ws_url

pytestmark = pytest.mark.integration


def test_ticks_stream_then_complete(base_url: str, tenant_key: str) -> None:
    with open_ws(base_url, {"X-API-Key": tenant_key}) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        messages = subscribe(ws, "subscription { ticks(count: 3, intervalMs: 10) }")
    ticks = [m["payload"]["data"]["ticks"] for m in messages if m["type"] == "next"]
    assert ticks == [1, 2, 3]
    assert messages[-1] == {"id": "1", "type": "complete"}


def test_bad_arguments_are_bad_input(base_url: str, tenant_key: str) -> None:
    with open_ws(base_url, {"apiKey": tenant_key}) as ws:
        ws.recv(timeout=10)
        messages = subscribe(ws, "subscription { ticks(count: 0) }")
    errors = [error for m in messages if m["type"] == "next" for error in m["payload"]["errors"]]
    assert [error["extensions"]["code"] for error in errors] == ["BAD_USER_INPUT"]
    assert messages[-1]["type"] == "complete"


@pytest.mark.parametrize("params", [None, {"X-API-Key": "trk_wrong"}, {"X-API-Key": 42}])
def test_connection_without_valid_key_is_rejected(
    base_url: str, params: dict[str, Any] | None
) -> None:
    with open_ws(base_url, params) as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4403


def test_legacy_graphql_ws_protocol_is_refused(base_url: str) -> None:
    legacy = [Subprotocol("graphql-ws")]
    with (
        connect(ws_url(base_url), subprotocols=legacy) as ws,
        pytest.raises(ConnectionClosed) as closed,
    ):
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4406


def test_ingest_progress_streams_to_a_final_event(base_url: str, tenant_key: str) -> None:
    import httpx

    from tests.graphql_client import GraphQLClient

    with httpx.Client(base_url=base_url, timeout=60) as http:
        gql = GraphQLClient(http, tenant_key)
        gql.data('mutation { createCollection(name: "progress") { id } }')
        docs = [
            {"externalId": f"d{i}", "text": f"Document {i}. " + "Words. " * 50} for i in range(40)
        ] + [{"externalId": "bad", "text": " "}]
        job = gql.data(
            "mutation($d: [DocumentInput!]!) { ingestDocuments(collection:"
            ' "progress", documents: $d) { job { id } } }',
            d=docs,
        )
    job_id = job["ingestDocuments"]["job"]["id"]
    query = (
        "subscription($j: ID!) { ingestProgress(jobId: $j) { total done indexed failed"
        " chunks graphed entities facts final } }"
    )
    with open_ws(base_url, {"X-API-Key": tenant_key}) as ws:
        ws.recv(timeout=10)
        ws.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {"query": query, "variables": {"j": job_id}},
                }
            )
        )
        events = []
        while (message := json.loads(ws.recv(timeout=60)))["type"] == "next":
            events.append(message["payload"]["data"]["ingestProgress"])
    assert message["type"] == "complete"
    assert events[-1] == {
        **events[-1],
        "total": 41,
        "done": 41,
        "indexed": 40,
        "failed": 1,
        "final": True,
    }
    assert events[-1]["chunks"] >= 120
    assert events[-1]["graphed"] == 40
    assert all(not e["final"] for e in events[:-1])
    assert [e["done"] for e in events] == sorted(e["done"] for e in events)


def test_ingest_progress_of_an_unknown_job(base_url: str, tenant_key: str) -> None:
    with open_ws(base_url, {"X-API-Key": tenant_key}) as ws:
        ws.recv(timeout=10)
        messages = subscribe(ws, 'subscription { ingestProgress(jobId: "nope") { final } }')
    errors = [e for m in messages if m["type"] == "next" for e in m["payload"]["errors"]]
    assert [e["extensions"]["code"] for e in errors] == ["NOT_FOUND"]
