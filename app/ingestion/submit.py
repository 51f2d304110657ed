"""Submitting documents and records for indexing, and following the jobs that index them."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from uuid import UUID

from app.collections.service import Collection, Collections
from app.errors import ErrorCode, TrellisError
from app.ingestion.access import access_scopes, check_overwrites
from app.ingestion.worker import IngestWorker
from ingest.failures import IngestFailure
from ingest.records import FieldSpec, check_schema, validate_record
from ingest.submission import DocumentSubmission, accept, identity
from store import jobs
from store import records as record_rows
from store.jobs import ItemOutcome as ItemOutcome
from store.jobs import JobSummary as JobSummary
from store.jobs import NewItem
from store.pool import Pool
from store.records import RecordSchema
from store.tenants import Tenant

RECORD_CONTENT_TYPE = "application/vnd.trellis.record+json"
MAX_BATCH = 1000


RecordSubmission = tuple[str, Any, list[str] | None]


class Ingestion:
    def __init__(
        self, pool: Pool, collections: Collections, worker: IngestWorker, max_bytes: int
    ) -> None:
        self._pool = pool
        self._collections = collections
        self._worker = worker
        self._max_bytes = max_bytes

    async def submit_documents(
        self, tenant: Tenant, collection: str, submissions: list[DocumentSubmission]
    ) -> UUID:
        target = await self._collections.get(tenant, collection)
        _check_batch_size(len(submissions))
        scopes = [
            access_scopes(tenant, s.access_scopes, f"documents[{i}].accessScopes")
            for i, s in enumerate(submissions)
        ]
        items = _unique(
            [self._document_item(s, a) for s, a in zip(submissions, scopes, strict=True)]
        )
        return await self._enqueue(tenant, target, items)

    async def define_record_schema(
        self, tenant: Tenant, collection: str, name: str, fields: list[FieldSpec]
    ) -> RecordSchema:
        target = await self._collections.get(tenant, collection)
        try:
            check_schema(fields)
        except IngestFailure as failure:
            raise TrellisError(ErrorCode.BAD_USER_INPUT, failure.message) from None
        async with self._pool.connection() as conn:
            return await record_rows.define_schema(
                conn, tenant.id, target.id, name.strip(), [f.as_json() for f in fields]
            )

    async def submit_records(
        self, tenant: Tenant, collection: str, schema_name: str, records: list[RecordSubmission]
    ) -> UUID:
        """Records as (id, fields, access scopes or None)."""
        target = await self._collections.get(tenant, collection)
        _check_batch_size(len(records))
        scopes = [
            access_scopes(tenant, given, f"records[{i}].accessScopes")
            for i, (_, _, given) in enumerate(records)
        ]
        async with self._pool.connection() as conn:
            schema = await record_rows.schema_by_name(conn, tenant.id, target.id, schema_name)
        if schema is None:
            raise TrellisError(ErrorCode.NOT_FOUND, f"no record schema named {schema_name!r}")
        items = _unique(
            [
                _record_item(schema, rid, values, a)
                for (rid, values, _), a in zip(records, scopes, strict=True)
            ]
        )
        return await self._enqueue(tenant, target, items)

    async def job(self, tenant: Tenant, job_id: UUID) -> JobSummary:
        async with self._pool.connection() as conn:
            found = await jobs.summary(conn, tenant.id, job_id)
        if found is None:
            raise TrellisError(ErrorCode.NOT_FOUND, f"no job {job_id}")
        return found

    async def outcomes(self, tenant: Tenant, job_id: UUID) -> list[ItemOutcome]:
        async with self._pool.connection() as conn:
            return await jobs.outcomes(conn, tenant.id, job_id)

    async def wait(self, tenant: Tenant, job_id: UUID, timeout: float) -> JobSummary:
        """The job once finished, or as it stands after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            summary = await self.job(tenant, job_id)
            if summary.finished_at is not None or time.monotonic() >= deadline:
                return summary
            await asyncio.sleep(0.1)

    async def _enqueue(self, tenant: Tenant, target: Collection, items: list[NewItem]) -> UUID:
        if not self._worker.indexes(target.embedding_model):
            items = [_unembeddable(item, target.embedding_model) for item in items]
        async with self._pool.connection() as conn, conn.transaction():
            await check_overwrites(conn, tenant, target.id, [i.external_id for i in items])
            job_id = await jobs.create(conn, tenant.id, target.id, items)
        self._worker.wake()
        return job_id

    def _document_item(self, submission: DocumentSubmission, scopes: list[str]) -> NewItem:
        try:
            doc = accept(submission, self._max_bytes)
        except IngestFailure as failure:
            return _failed_item(_safe_identity(submission), failure)
        request = {
            "kind": "document",
            "title": doc.title,
            "content_type": doc.content_type,
            "metadata": doc.metadata,
            "path": submission.path,
            "access_scopes": scopes,
        }
        return NewItem(doc.external_id, request, doc.raw)


def _record_item(schema: RecordSchema, record_id: str, values: Any, scopes: list[str]) -> NewItem:
    external_id = (record_id or "").strip()
    try:
        if not external_id:
            raise IngestFailure("INVALID_RECORD", "each record needs an id")
        checked = validate_record(schema.fields, values)
    except IngestFailure as failure:
        return _failed_item(external_id or "(no id)", failure)
    request: dict[str, Any] = {
        "kind": "record",
        "schema_id": str(schema.id),
        "schema": schema.fields,
        "title": None,
        "content_type": RECORD_CONTENT_TYPE,
        "metadata": {},
        "access_scopes": scopes,
    }
    return NewItem(external_id, request, json.dumps(checked, sort_keys=True).encode())


def _unembeddable(item: NewItem, model: str) -> NewItem:
    """This server offers no embedder for the collection's model: the item fails now,
    instead of waiting for a worker that may never come."""
    if item.status == "FAILED":
        return item
    message = f"embedding model {model!r} is not available on this server"
    return _failed_item(item.external_id, IngestFailure("EMBEDDING_PROFILE_MISMATCH", message))


def _failed_item(external_id: str, failure: IngestFailure) -> NewItem:
    no_request: dict[str, Any] = {}
    return NewItem(external_id, no_request, None, failure.code, failure.message, status="FAILED")


def _safe_identity(submission: DocumentSubmission) -> str:
    try:
        return identity(submission)
    except IngestFailure:
        return "(no id)"


def _unique(items: list[NewItem]) -> list[NewItem]:
    """A second item for the same id in one batch fails rather than racing the first."""
    seen: set[str] = set()
    result = []
    for item in items:
        if item.status == "PENDING" and item.external_id in seen:
            item = _failed_item(
                item.external_id,
                IngestFailure("BAD_USER_INPUT", "this id appears more than once in the batch"),
            )
        seen.add(item.external_id)
        result.append(item)
    return result


def _check_batch_size(count: int) -> None:
    if not 1 <= count <= MAX_BATCH:
        raise TrellisError(
            ErrorCode.BAD_USER_INPUT, f"send between 1 and {MAX_BATCH} items at once"
        )
