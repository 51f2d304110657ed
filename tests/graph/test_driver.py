"""Reads are auto-commit queries, retried as a managed transaction would be: on errors the
driver calls retryable, for the store's retry time, and never on the query's own errors. An
unreachable server is not retried: the breaker fails the calls that follow at once."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid
from dataclasses import replace

import pytest
from neo4j.exceptions import CypherSyntaxError, ServiceUnavailable

from app.localdb.stack import Stack
from graph._breaker import Breaker
from graph.driver import GraphStore, open_graph
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


def _unreachable(breaker: Breaker) -> GraphStore:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    graph = open_graph(f"bolt://127.0.0.1:{port}", None, None, "neo4j", 1)
    return replace(graph, breaker=breaker)


async def _failures(graph: GraphStore, calls: int) -> list[str]:
    """The messages of `calls` reads in turn, each of which must fail as unavailable."""
    messages = []
    try:
        for _ in range(calls):
            with pytest.raises(ServiceUnavailable) as failed:
                await graph.read("RETURN 1 AS x")
            messages.append(str(failed.value))
    finally:
        await graph.close()
    return messages


def test_an_unreachable_server_opens_the_breaker_and_later_calls_fail_at_once() -> None:
    first, second, third = asyncio.run(_failures(_unreachable(Breaker(cooldown=60)), 3))
    assert "moments ago" not in first  # the driver's own failure to connect
    assert second == third == "neo4j could not be reached moments ago"


def test_after_the_cooldown_a_call_probes_the_server_again() -> None:
    first, second = asyncio.run(_failures(_unreachable(Breaker(cooldown=0)), 2))
    assert "moments ago" not in first and "moments ago" not in second


def test_while_one_call_probes_the_others_fail_at_once() -> None:
    async def run() -> None:
        breaker = Breaker(cooldown=0)
        with pytest.raises(ServiceUnavailable):
            async with breaker.guarding():
                raise ServiceUnavailable("refused")
        async with breaker.guarding():  # the probe
            with pytest.raises(ServiceUnavailable, match="moments ago"):
                async with breaker.guarding():
                    pass
        async with breaker.guarding():  # the probe succeeded: closed
            pass

    asyncio.run(run())


def test_a_server_that_answers_closes_the_breaker(stack: Stack) -> None:
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 10)
    breaker = Breaker(cooldown=0)
    tripped = replace(graph, breaker=breaker)

    async def run() -> None:
        with pytest.raises(ServiceUnavailable):
            async with breaker.guarding():
                raise ServiceUnavailable("refused")
        assert await tripped.read("RETURN 1 AS x") == [{"x": 1}]
        assert await tripped.read("RETURN 2 AS x") == [{"x": 2}]
        await tripped.close()

    asyncio.run(run())
