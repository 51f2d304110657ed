"""Apply the graph outbox to Neo4j. Postgres stays the truth; Neo4j follows it idempotently.

Failures are isolated: a batch that fails is retried row by row, each in its own
transaction, and a row that fails alone is recorded in a transaction of its own, waits, and
after its last attempt is parked with the reason in its document's graph notes. An
unavailable backend is nobody's fault: it counts no attempt, and the pass stops until the
backend is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from uuid import UUID

from app.backend_errors import as_backend_unavailable, log_pass_failure
from app.knowledge.document_graph import DocumentGraphs
from app.knowledge.fact_vectors import FactVectors
from app.knowledge.named import ChunkEntities
from graph.collections import upsert_collections
from graph.documents import delete_collections
from graph.driver import GraphStore
from store import outbox
from store.outbox import OutboxRow, RetryPolicy
from store.pool import Conn, Pool

log = logging.getLogger(__name__)

Handler = Callable[[Conn, list[dict[str, Any]]], Awaitable[None]]
BATCH = 64  # outbox rows (so documents) per Neo4j transaction


class GraphProjector:
    def __init__(
        self,
        pool: Pool,
        graph: GraphStore,
        spacy_model: str,
        retry: RetryPolicy | None = None,
        facts: FactVectors | None = None,
    ) -> None:
        self._pool = pool
        self._retry = retry or RetryPolicy()
        self._facts = facts
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self.documents = DocumentGraphs(graph, spacy_model)
        self._entities = ChunkEntities(pool)
        self._handlers: dict[str, Handler] = {
            "collection.upsert": lambda _, rows: upsert_collections(graph, rows),
            "collection.delete": lambda _, rows: delete_collections(graph, rows),
            "document.upsert": self.documents.upsert,
            "document.delete": self.documents.remove,
        }

    def wake(self) -> None:
        """Ask the projection loop to run now rather than at its next tick."""
        self._wake.set()

    async def wait_for_wake(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)
        self._wake.clear()

    async def drain(self, collections: list[UUID] | None = None) -> int:
        """Apply waiting outbox rows (of these collections, or all) until none is ready.
        Returns rows handled, failed ones included. Raises when a backend is unavailable.
        Then embeds the facts the rows recorded, for query-to-fact matching, and reads the
        entities of chunks graphed before they were kept (app/knowledge/named.py)."""
        handled = 0
        async with self._lock:
            while (count := await self._batch(collections)) > 0:
                handled += count
        if self._facts is not None:  # after the lock: a slow embedder holds no graph work
            await self._facts.embed_waiting(collections)
        await self._entities.read_unread(self.documents.extractor, collections)
        return handled

    async def waiting(self, collections: list[UUID]) -> int:
        """Rows of these collections still to apply, in backoff included."""
        async with self._pool.connection() as conn:
            return await outbox.waiting(conn, collections)

    async def _batch(self, collections: list[UUID] | None) -> int:
        claimed: list[OutboxRow] = []
        try:
            async with self._pool.connection() as conn, conn.transaction():
                claimed = await outbox.claim(conn, BATCH, collections)
                await self._apply(conn, claimed)
            return len(claimed)
        except Exception as error:
            if not claimed or as_backend_unavailable(error) is not None:
                raise
            log.warning("a graph batch of %d rows failed; retrying each alone", len(claimed))
            for row in claimed:
                await self._alone(row)
            return len(claimed)

    async def _alone(self, row: OutboxRow) -> None:
        try:
            async with self._pool.connection() as conn, conn.transaction():
                await self._apply(conn, await outbox.claim_ids(conn, [row.id]))
        except Exception as error:
            if as_backend_unavailable(error) is not None:
                raise
            await self._record_failure(row, error)

    async def _record_failure(self, row: OutboxRow, error: Exception) -> None:
        reason = f"{type(error).__name__}: {error}"
        async with self._pool.connection() as conn, conn.transaction():
            parked = await outbox.record_failure(conn, row.id, reason, self._retry)
        log.log(
            logging.ERROR if parked else logging.WARNING,
            "graph projection of outbox row %d (%s) failed%s: %s",
            row.id,
            row.kind,
            "; parked" if parked else "; will retry",
            reason,
            exc_info=error if parked else None,
        )

    async def _apply(self, conn: Conn, rows: list[OutboxRow]) -> None:
        """Apply rows in order, batching consecutive rows of the same kind; then mark them."""
        batch: list[OutboxRow] = []
        for row in rows:
            if batch and batch[-1].kind != row.kind:
                await self._apply_kind(conn, batch)
                batch = []
            batch.append(row)
        if batch:
            await self._apply_kind(conn, batch)
        await outbox.mark_done(conn, [row.id for row in rows])

    async def _apply_kind(self, conn: Conn, rows: list[OutboxRow]) -> None:
        handler = self._handlers.get(rows[0].kind)
        if handler is None:
            raise ValueError(f"no graph handler for outbox kind {rows[0].kind!r}")
        await handler(conn, [row.payload for row in rows])


async def run_projection_loop(projector: GraphProjector, interval_seconds: float = 5.0) -> None:
    """Apply the outbox in the background: when woken, and every few seconds for changes
    Neo4j missed while it was down and rows whose retry is due."""
    while True:
        try:
            await projector.drain()
        except Exception as error:
            log_pass_failure(log, "graph projection", error)
        await projector.wait_for_wake(interval_seconds)
