"""The WebSocket path end to end, over graphql-transport-ws only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import replace
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from app.localdb.stack import Stack
from schema.serving import running_server
from tests.graph_helpers import eventually
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


@pytest.fixture(scope="module")
def strict_url(stack: Stack) -> Iterator[str]:
    """A second server on the same databases, with small socket and stream limits."""
    serving = replace(stack.settings.serving, sockets_per_key=2, stream_seconds=1.0)
    with running_server(stack, replace(stack.settings, serving=serving)) as url:
        yield url


def test_a_key_holds_a_bounded_number_of_sockets(strict_url: str, tenant_key: str) -> None:
    params = {"X-API-Key": tenant_key}
    with ExitStack() as held:
        for _ in range(2):
            ws = held.enter_context(open_ws(strict_url, params))
            assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        with open_ws(strict_url, params) as third, pytest.raises(ConnectionClosed) as closed:
            third.recv(timeout=10)
        # Strawberry closes a refused socket as 4403 Forbidden, whatever the reason.
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403

    def opens() -> bool:  # the server counts a socket closed once it has seen it close
        with open_ws(strict_url, params) as ws:
            try:
                return bool(json.loads(ws.recv(timeout=10))["type"] == "connection_ack")
            except ConnectionClosed:
                return False

    eventually(opens, seconds=10)


def test_a_stream_ends_at_the_longest_a_stream_may_run(strict_url: str, tenant_key: str) -> None:
    with open_ws(strict_url, {"X-API-Key": tenant_key}) as ws:
        ws.recv(timeout=10)
        messages = subscribe(ws, "subscription { ticks(count: 100, intervalMs: 100) }")
    ticks = [m for m in messages if m["type"] == "next" and m["payload"].get("data")]
    assert 5 <= len(ticks) <= 15
    errors = [e for m in messages if m["type"] == "next" for e in m["payload"].get("errors", [])]
    assert [e["extensions"] for e in errors] == [{"code": "TIMEOUT", "field": "ticks"}]
