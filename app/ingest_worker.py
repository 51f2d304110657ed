"""The ingest worker: claims queued items, indexes them, commits each batch atomically.

Claimed items stay locked (FOR UPDATE SKIP LOCKED) for the batch's transaction, so a killed
worker leaves them PENDING and the next worker indexes them, with no duplicates: the
chunks, postings, vectors, outbox row and the item's outcome commit together.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from app.embedders import Embedders
from app.indexing import IndexTask, prepare_batch
from store import documents, jobs, outbox
from store.collections import by_id
from store.documents import DocumentKey
from store.jobs import ClaimedItem
from store.pool import Conn, Pool

log = logging.getLogger(__name__)
BATCH_SIZE = 32


@dataclass(frozen=True)
class BatchResult:
    items: int
    indexed: int
    chunks: int


class IngestWorker:
    def __init__(self, pool: Pool, embedders: Embedders, batch_size: int = BATCH_SIZE) -> None:
        self._pool = pool
        self._embedders = embedders
        self._batch_size = batch_size
        self._wake = asyncio.Event()

    def wake(self) -> None:
        self._wake.set()

    async def drain(self, on_batch: Callable[[BatchResult], None] | None = None) -> int:
        """Process batches until nothing is pending. Returns the items processed."""
        total = 0
        while (result := await self.run_batch()).items:
            total += result.items
            if on_batch is not None:
                on_batch(result)
        return total

    async def run_forever(
        self, after_batch: Callable[[], object], idle_seconds: float = 1.0
    ) -> None:
        while True:
            try:
                if await self.drain():
                    await _maybe_await(after_batch())
            except Exception:
                log.exception("ingest batch failed; retrying")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), idle_seconds)

    async def run_batch(self) -> BatchResult:
        async with self._pool.connection() as conn, conn.transaction():
            items = await jobs.claim(conn, self._batch_size)
            if not items:
                return BatchResult(0, 0, 0)
            tasks = await self._plan(conn, items)
            await asyncio.to_thread(prepare_batch, tasks, self._embedders)
            result = await self._write(conn, tasks)
            await jobs.close_finished(conn, sorted({item.job_id for item in items}))
            return result

    async def _plan(self, conn: Conn, items: list[ClaimedItem]) -> list[IndexTask]:
        """Lock each document and look up what is stored for it, in a fixed order."""
        tasks = []
        for item in sorted(items, key=lambda i: (str(i.collection_id), i.external_id, i.id)):
            key = DocumentKey(item.tenant_id, item.collection_id, item.external_id)
            await documents.lock_key(conn, key)
            collection = await by_id(conn, item.tenant_id, item.collection_id)
            assert collection is not None  # deleting a collection deletes its items
            existing = await documents.find(conn, key)
            tasks.append(IndexTask(item, key, collection.embedding_model, existing))
        return tasks

    async def _write(self, conn: Conn, tasks: list[IndexTask]) -> BatchResult:
        indexed = chunks = 0
        for task in tasks:
            if task.failure is not None:
                await jobs.finish_item(conn, task.item.id, "FAILED", error=task.failure)
            elif task.document is None:
                assert task.existing is not None
                await documents.update_metadata(conn, task.existing.id, task.metadata)
                await jobs.finish_item(conn, task.item.id, "UNCHANGED", task.existing.id)
            else:
                document_id = await documents.upsert(conn, task.document, task.existing)
                await task.write_extras(conn, document_id)
                await outbox.enqueue(
                    conn, task.key.tenant_id, "document.upsert", task.graph_payload(document_id)
                )
                count = len(task.document.prepared.chunks)
                await jobs.finish_item(conn, task.item.id, "INDEXED", document_id, count)
                indexed, chunks = indexed + 1, chunks + count
        return BatchResult(len(tasks), indexed, chunks)


async def _maybe_await(value: object) -> None:
    if asyncio.iscoroutine(value):
        await value
