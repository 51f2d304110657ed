"""Reads are auto-commit queries, retried as a managed transaction would be: on errors the
driver calls retryable, for the store's retry time, and never on the query's own errors."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid

import pytest
from neo4j.exceptions import CypherSyntaxError, ServiceUnavailable

from app.localdb.stack import Stack
from graph.driver import FIRST_RETRY_DELAY, GraphStore, open_graph
from tests.graph.test_expansion import cypher_write

pytestmark = pytest.mark.integration


def read(graph: GraphStore, query: str, **params: object) -> list[dict[str, object]]:
    async def run() -> list[dict[str, object]]:
        try:
            return await graph.read(query, **params)
        finally:
            await graph.close()

    return asyncio.run(run())


def test_a_read_sees_what_was_written_before_it(stack: Stack) -> None:
    tenant = f"t-{uuid.uuid4().hex[:8]}"
    cypher_write(stack, "CREATE (:Entity {id: 'e1', tenant_id: $t, name: 'Ada'})", t=tenant)
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
    found = read(graph, "MATCH (e:Entity {tenant_id: $t}) RETURN e.name AS name", t=tenant)
    assert found == [{"name": "Ada"}]


def test_a_query_error_is_not_retried(stack: Stack) -> None:
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
    started = time.monotonic()
    with pytest.raises(CypherSyntaxError):
        read(graph, "MATCH (n RETURN n")
    assert time.monotonic() - started < 5  # not the 10 s of retries


def test_an_unreachable_server_is_retried_until_the_retry_time() -> None:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    graph = open_graph(f"bolt://127.0.0.1:{port}", None, None, "neo4j", 1)
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable):
        read(graph, "RETURN 1 AS x")
    elapsed = time.monotonic() - started
    assert 7 * FIRST_RETRY_DELAY <= elapsed < 5  # three retries at least: 0.05 + 0.1 + 0.2 s
