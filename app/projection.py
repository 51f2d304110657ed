"""Apply the graph outbox to Neo4j. Postgres stays the truth; Neo4j follows it idempotently."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.backend_errors import as_backend_unavailable
from graph.collections import upsert_collections
from graph.documents import delete_collections, delete_documents, upsert_documents
from graph.driver import GraphStore
from store import outbox
from store.outbox import OutboxRow
from store.pool import Pool

log = logging.getLogger(__name__)

Handler = Callable[[GraphStore, list[dict[str, Any]]], Awaitable[None]]
HANDLERS: dict[str, Handler] = {
    "collection.upsert": upsert_collections,
    "collection.delete": delete_collections,
    "document.upsert": upsert_documents,
    "document.delete": delete_documents,
}
_BATCH = 200


class GraphProjector:
    def __init__(self, pool: Pool, graph: GraphStore) -> None:
        self._pool = pool
        self._graph = graph
        self._lock = asyncio.Lock()

    async def drain_soon(self) -> None:
        """Best effort now: Postgres already holds the change and the loop retries later."""
        try:
            await self.drain()
        except Exception:
            log.warning("graph projection deferred", exc_info=True)

    async def drain(self) -> int:
        """Apply pending outbox rows until none are left or Neo4j fails. Returns rows applied."""
        applied = 0
        async with self._lock:
            while (count := await self._apply_batch()) > 0:
                applied += count
        return applied

    async def _apply_batch(self) -> int:
        async with self._pool.connection() as conn, conn.transaction():
            rows = await outbox.claim(conn, _BATCH)
            if not rows:
                return 0
            ids = [row.id for row in rows]
            try:
                await _apply(self._graph, rows)
            except Exception as error:
                if as_backend_unavailable(error) is None:
                    log.exception("graph projection failed for outbox rows %s", ids)
                await outbox.mark_failed(conn, ids, f"{type(error).__name__}: {error}")
                return 0
            await outbox.mark_done(conn, ids)
            return len(rows)


async def _apply(graph: GraphStore, rows: list[OutboxRow]) -> None:
    """Apply rows in order, batching consecutive rows of the same kind."""
    batch: list[OutboxRow] = []
    for row in rows:
        if batch and batch[-1].kind != row.kind:
            await _apply_kind(graph, batch)
            batch = []
        batch.append(row)
    if batch:
        await _apply_kind(graph, batch)


async def _apply_kind(graph: GraphStore, rows: list[OutboxRow]) -> None:
    handler = HANDLERS.get(rows[0].kind)
    if handler is None:
        raise ValueError(f"no graph handler for outbox kind {rows[0].kind!r}")
    await handler(graph, [row.payload for row in rows])


async def run_projection_loop(projector: GraphProjector, interval_seconds: float = 5.0) -> None:
    """Retry pending projections in the background, for changes Neo4j missed while down."""
    while True:
        try:
            await projector.drain()
        except Exception:
            log.warning("graph projection pass failed", exc_info=True)
        await asyncio.sleep(interval_seconds)
