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
from typing import Any
from uuid import UUID

from app.backend_errors import log_pass_failure
from app.ingestion.indexing import IndexTask, prepare_batch
from app.models.embedders import Embedders
from store import documents, jobs, outbox, statistics
from store.collections import by_id
from store.documents import DocumentKey
from store.index_writer import IndexWriter
from store.jobs import ClaimedItem
from store.pool import Conn, Pool

log = logging.getLogger(__name__)
# Large enough that sorting texts by length keeps embedding batches well packed.
BATCH_SIZE = 128
# About a minute of embedding on two cores: progress moves, and a giant document goes alone.
BATCH_BYTES = 512 * 1024


@dataclass(frozen=True)
class BatchResult:
    items: int
    indexed: int
    chunks: int


class IngestWorker:
    def __init__(
        self,
        pool: Pool,
        embedders: Embedders,
        batch_size: int = BATCH_SIZE,
        max_bytes: int = BATCH_BYTES,
    ) -> None:
        self._pool = pool
        self._embedders = embedders
        self._limits = jobs.BatchLimits(batch_size, max_bytes)
        self._wake = asyncio.Event()

    def wake(self) -> None:
        self._wake.set()

    def indexes(self, model_id: str) -> bool:
        """Whether this process can embed for `model_id`."""
        return model_id in self._embedders.model_ids()

    async def drain(self, on_batch: Callable[[BatchResult], None] | None = None) -> int:
        """Process batches until nothing is pending. Returns the items processed."""
        total = 0
        while (result := await self.run_batch()).items:
            total += result.items
            if on_batch is not None:
                on_batch(result)
        return total

    async def run_forever(self, after_batch: Callable[[], None], idle_seconds: float = 1.0) -> None:
        while True:
            try:
                if await self.drain():
                    after_batch()
            except Exception as error:
                log_pass_failure(log, "ingest", error)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), idle_seconds)

    async def run_batch(self, only_jobs: list[UUID] | None = None) -> BatchResult:
        """Index one fair batch of pending items, of these jobs or of any."""
        async with self._pool.connection() as conn, conn.transaction():
            models = self._embedders.model_ids()
            items = await jobs.claim(conn, self._limits, models, only_jobs)
            if not items:
                return BatchResult(0, 0, 0)
            tasks = await self._plan(conn, items)
            await asyncio.to_thread(prepare_batch, tasks, self._embedders)
            result = await self._write(conn, tasks)
            finished = await jobs.close_finished(conn, sorted({item.job_id for item in items}))
            await statistics.refresh_for(conn, finished)
            return result

    async def _plan(self, conn: Conn, items: list[ClaimedItem]) -> list[IndexTask]:
        """Lock every document of the batch, then look up what is stored for each."""
        keys = [DocumentKey(i.tenant_id, i.collection_id, i.external_id) for i in items]
        await documents.lock_keys(conn, keys)
        existing = await documents.find_many(conn, keys)
        models: dict[UUID, str] = {}
        for item in items:
            if item.collection_id not in models:
                collection = await by_id(conn, item.tenant_id, item.collection_id)
                assert collection is not None  # deleting a collection deletes its items
                models[item.collection_id] = collection.embedding_model
        return [
            IndexTask(item, key, models[item.collection_id], existing.get(key))
            for item, key in zip(items, keys, strict=True)
        ]

    async def _write(self, conn: Conn, tasks: list[IndexTask]) -> BatchResult:
        writer = IndexWriter()
        finished: list[jobs.Finished] = []
        graph_rows: list[tuple[UUID, UUID, dict[str, Any]]] = []
        for task in tasks:
            finished.append(await self._write_one(conn, writer, task, graph_rows))
        await writer.flush(conn)
        await outbox.enqueue_many(conn, "document.upsert", graph_rows)
        await jobs.finish_items(conn, finished)
        indexed = [f for f in finished if f.status == "INDEXED"]
        return BatchResult(len(tasks), len(indexed), sum(f.chunks for f in indexed))

    async def _write_one(
        self,
        conn: Conn,
        writer: IndexWriter,
        task: IndexTask,
        graph_rows: list[tuple[UUID, UUID, dict[str, Any]]],
    ) -> jobs.Finished:
        item_id = task.item.id
        if task.failure is not None:
            return jobs.Finished(item_id, "FAILED", error=task.failure)
        if task.document is None:
            assert task.existing is not None
            await documents.update_metadata(
                conn, task.existing.id, task.metadata, task.access_scopes
            )
            return jobs.Finished(item_id, "UNCHANGED", task.existing.id)
        if task.existing is not None:
            document_id = task.existing.id
            await writer.remove(conn, task.key.tenant_id, document_id)
            await documents.update_row(conn, document_id, task.document)
        else:
            document_id = await documents.insert_row(conn, task.document)
        writer.add(task.document, document_id)
        await task.write_extras(conn, document_id)
        graph_rows.append(
            (task.key.tenant_id, task.key.collection_id, task.graph_payload(document_id))
        )
        return jobs.Finished(item_id, "INDEXED", document_id, len(task.document.prepared.chunks))
