"""Kill the graph worker mid-batch; after a restart the graph equals an uninterrupted run's."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import LiteralString

import pytest

from app.knowledge.projection import GraphProjector
from app.localdb.stack import Stack, local_stack, stack_services
from graph.driver import GraphStore, Statement
from ingest.submission import DocumentSubmission
from store.tenants import ensure_tenant
from tests import corpus
from tests.graph_helpers import counts, cypher, graphed
from tests.helpers import rows

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def quiet_stack() -> Iterator[Stack]:
    """No server here: nothing projects the outbox unless the test runs a worker."""
    with local_stack() as stack:
        yield stack


def trellis(stack: Stack, *args: str) -> subprocess.Popen[bytes]:
    command = [str(Path(sys.executable).parent / "trellis"), *args]
    return subprocess.Popen(
        command,
        env={**os.environ, **stack.env()},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_killed_graph_worker_resumes_to_the_same_graph(quiet_stack: Stack, tmp_path: Path) -> None:
    passages = corpus.passages(150)
    source = tmp_path / "passages.jsonl"
    source.write_text(
        "".join(
            json.dumps({"id": p["title"], "title": p["title"], "text": p["text"]}) + "\n"
            for p in passages
        )
    )
    for name in ("interrupted", "uninterrupted"):
        ingest = trellis(
            quiet_stack, "ingest", str(source), "--collection", name, "--create", "--no-graph"
        )
        assert ingest.wait(300) == 0, ingest.stderr.read() if ingest.stderr else ""
    worker = trellis(quiet_stack, "graph", "sync")
    _wait_for_first_batch(quiet_stack, worker)
    worker.send_signal(signal.SIGKILL)
    worker.wait(30)
    assert graphed(quiet_stack, "interrupted") < len(passages), "killed too late to test"
    _sync_until_empty(quiet_stack)
    assert graphed(quiet_stack, "interrupted") == graphed(quiet_stack, "uninterrupted") == 150
    assert counts(quiet_stack, "interrupted") == counts(quiet_stack, "uninterrupted")


def _wait_for_first_batch(stack: Stack, worker: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 300
    while graphed(stack, "interrupted") == 0:
        assert worker.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)


def _sync_until_empty(stack: Stack) -> None:
    """Restart the worker until the outbox is empty (a dying backend may hold a few rows)."""
    deadline = time.monotonic() + 300
    pending = "SELECT count(*) FROM graph_outbox WHERE done_at IS NULL"
    while rows(stack, pending) != [(0,)]:
        assert time.monotonic() < deadline, "the outbox never drained"
        assert trellis(stack, "graph", "sync").wait(300) == 0


@dataclass(frozen=True)
class _DiesAfterWriting(GraphStore):
    """Neo4j commits the first batch, then the worker 'dies' before Postgres commits its own
    transaction: the window in which the replay must land on the same nodes."""

    died: list[bool] = field(default_factory=list)

    async def write_many(self, statements: list[Statement]) -> None:
        await super().write_many(statements)
        if not self.died:
            self.died.append(True)
            raise RuntimeError("died between the two commits")


def test_a_batch_replayed_after_neo4j_committed_leaves_no_orphans(quiet_stack: Stack) -> None:
    asyncio.run(_replay_after_neo4j_committed(quiet_stack))
    cid = rows(quiet_stack, "SELECT id::text FROM collections WHERE name = 'replayed'")[0][0]
    assert graphed(quiet_stack, "replayed") == 12
    held = {r["id"] for r in cypher(quiet_stack, _ENTITY_IDS, c=cid)}
    stored = {r[0] for r in rows(quiet_stack, _STORED_ENTITIES, cid)}
    assert held == stored and stored
    edges = {r["id"] for r in cypher(quiet_stack, _FACT_EDGES, c=cid)}
    facts = {r[0] for r in rows(quiet_stack, _STORED_FACTS, cid)}
    assert edges == facts and facts


_ENTITY_IDS: LiteralString = "MATCH (e:Entity {collection_id: $c}) RETURN e.id AS id"
_STORED_ENTITIES = "SELECT id::text FROM entities WHERE collection_id = %s"
_FACT_EDGES: LiteralString = (
    "MATCH (:Entity {collection_id: $c})-[r:RELATED]->() RETURN r.fact_id AS id"
)
_STORED_FACTS = "SELECT id::text FROM facts WHERE collection_id = %s"


async def _replay_after_neo4j_committed(stack: Stack) -> None:
    async with stack_services(stack) as services:
        async with services.pool.connection() as conn:
            tenant = await ensure_tenant(conn, "crash")
        await services.collections.create(tenant, "replayed")
        documents = [
            DocumentSubmission(external_id=p["title"], title=p["title"], text=p["text"])
            for p in corpus.passages(12)
        ]
        await services.ingestion.submit_documents(tenant, "replayed", documents)
        await services.worker.drain()
        graph = services.graph
        dying = _DiesAfterWriting(graph.driver, graph.database, graph.retry_seconds)
        assert await GraphProjector(services.pool, dying, stack.settings.spacy_model).drain()
        assert dying.died
