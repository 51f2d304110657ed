"""What the worker does to one claimed item, between reading it and writing the result.

`prepare_batch` is pure CPU (parse, section, chunk, analyze, embed) and runs in a thread.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from app.errors import TrellisError
from app.models.embedders import Embedders
from graph.documents import document_row
from ingest.failures import IngestFailure
from ingest.parsing import ParsedText, parse, parse_text
from ingest.pipeline import content_hash, embed_all, prepare
from ingest.records import record_text
from store import records as record_rows
from store.documents import DocumentKey, ExistingDocument, NewDocument
from store.jobs import ClaimedItem
from store.pool import Conn


@dataclass
class IndexTask:
    item: ClaimedItem
    key: DocumentKey
    model_id: str
    existing: ExistingDocument | None
    failure: tuple[str, str] | None = None
    document: NewDocument | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def request(self) -> dict[str, Any]:
        return self.item.request

    @property
    def metadata(self) -> dict[str, Any]:
        return dict(self.request.get("metadata") or {})

    @property
    def access_scopes(self) -> list[str]:
        return list(self.request.get("access_scopes") or [])

    @property
    def is_record(self) -> bool:
        return self.request.get("kind") == "record"

    def graph_payload(self, document_id: object) -> dict[str, Any]:
        assert self.document is not None
        return document_row(
            document_id,
            self.key.tenant_id,
            self.key.collection_id,
            self.key.external_id,
            self.document.prepared.title,
            self.document.source_type,
        )

    async def write_extras(self, conn: Conn, document_id: object) -> None:
        if self.is_record:
            await record_rows.upsert(
                conn,
                self.key.tenant_id,
                document_id,
                self.request["schema_id"],
                self.extras["fields"],
            )


def prepare_batch(tasks: list[IndexTask], embedders: Embedders) -> None:
    """Fill each task's document or failure; one embedding call per model."""
    by_model: dict[str, list[IndexTask]] = defaultdict(list)
    for task in tasks:
        try:
            _prepare_one(task, embedders)
        except IngestFailure as failure:
            task.failure = (failure.code, failure.message)
        except TrellisError as error:
            task.failure = (error.code.value, error.message)
        if task.document is not None:
            by_model[task.model_id].append(task)
    for model_id, group in by_model.items():
        embed_all([t.document.prepared for t in group if t.document], embedders.get(model_id))


def _prepare_one(task: IndexTask, embedders: Embedders) -> None:
    request, raw = task.request, bytes(task.item.payload)
    title = request.get("title") or ""
    digest = content_hash(request["content_type"], title, raw, task.access_scopes)
    if task.existing is not None and task.existing.content_hash == digest:
        return  # unchanged: no document, no failure
    parsed, title, extras = _parse(task, raw, title)
    embedder = embedders.get(task.model_id)
    task.extras = extras
    task.document = NewDocument(
        key=task.key,
        source_type="RECORD" if task.is_record else "DOCUMENT",
        content_type=request["content_type"],
        metadata=task.metadata,
        content_hash=digest,
        prepared=prepare(parsed, title, embedder),
        access_scopes=tuple(task.access_scopes),
    )


def _parse(task: IndexTask, raw: bytes, title: str) -> tuple[ParsedText, str, dict[str, Any]]:
    if task.is_record:
        fields = json.loads(raw)
        text, record_title = record_text(task.request["schema"], fields)
        if not text.strip():
            raise IngestFailure("EMPTY_DOCUMENT", "the record has no searchable text")
        return parse_text("text/plain", text), title or record_title, {"fields": fields}
    parsed = parse(task.request["content_type"], raw)
    fallback = task.request.get("path") or ""
    return parsed, title or parsed.title or fallback.rsplit("/", 1)[-1], {}
