"""Apply the graph outbox to Neo4j. Postgres stays the truth; Neo4j follows it idempotently."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.backend_errors import as_backend_unavailable
from app.document_graph import DocumentGraphs
from graph.collections import upsert_collections
from graph.documents import delete_collections
from graph.driver import GraphStore
from store import outbox
from store.outbox import OutboxRow
from store.pool import Conn, Pool

log = logging.getLogger(__name__)

Handler = Callable[[Conn, list[dict[str, Any]]], Awaitable[None]]
BATCH = 64  # outbox rows (so documents) per Neo4j transaction


class GraphProjector:
    def __init__(self, pool: Pool, graph: GraphStore, spacy_model: str) -> None:
        self._pool = pool
        self._graph = graph
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self.documents = DocumentGraphs(graph, spacy_model)
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

    async def drain(self) -> int:
        """Apply pending outbox rows until none are left or Neo4j fails. Returns rows applied."""
        applied = 0
        async with self._lock:
            while (count := await self._apply_batch()) > 0:
                applied += count
        return applied

    async def _apply(self, conn: Conn, rows: list[OutboxRow]) -> None:
        """Apply rows in order, batching consecutive rows of the same kind."""
        batch: list[OutboxRow] = []
        for row in rows:
            if batch and batch[-1].kind != row.kind:
                await self._apply_kind(conn, batch)
                batch = []
            batch.append(row)
        if batch:
            await self._apply_kind(conn, batch)

    async def _apply_kind(self, conn: Conn, rows: list[OutboxRow]) -> None:
        handler = self._handlers.get(rows[0].kind)
        if handler is None:
            raise ValueError(f"no graph handler for outbox kind {rows[0].kind!r}")
        await handler(conn, [row.payload for row in rows])

    async def _apply_batch(self) -> int:
        async with self._pool.connection() as conn, conn.transaction():
            rows = await outbox.claim(conn, BATCH)
            if not rows:
                return 0
            ids = [row.id for row in rows]
            try:
                await self._apply(conn, rows)
            except Exception as error:
                if as_backend_unavailable(error) is None:
                    log.exception("graph projection failed for outbox rows %s", ids)
                await outbox.mark_failed(conn, ids, f"{type(error).__name__}: {error}")
                return 0
            await outbox.mark_done(conn, ids)
            return len(rows)


async def run_projection_loop(projector: GraphProjector, interval_seconds: float = 5.0) -> None:
    """Apply the outbox in the background: when woken, and every few seconds for changes
    Neo4j missed while it was down."""
    while True:
        try:
            await projector.drain()
        except Exception:
            log.warning("graph projection pass failed", exc_info=True)
        await projector.wait_for_wake(interval_seconds)
