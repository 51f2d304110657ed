"""GraphQL types for ingest jobs: each item's outcome, and the progress stream."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry

from app.ingestion.submit import ItemOutcome, JobSummary
from schema.context import Info


@strawberry.enum
class ItemStatus(Enum):
    PENDING = "PENDING"
    INDEXED = "INDEXED"
    UNCHANGED = "UNCHANGED"
    FAILED = "FAILED"


@strawberry.type
class DocumentOutcome:
    index: int
    external_id: str
    status: ItemStatus
    document_id: strawberry.ID | None
    chunks: int
    code: str | None
    message: str | None
    graph_notes: list[str] = strawberry.field(
        description="Graph extraction notes: caps hit, languages skipped, errors."
    )

    @classmethod
    def of(cls, row: ItemOutcome) -> DocumentOutcome:
        document_id = None if row.document_id is None else strawberry.ID(str(row.document_id))
        return cls(
            index=row.ordinal,
            external_id=row.external_id,
            status=ItemStatus(row.status),
            document_id=document_id,
            chunks=row.chunk_count,
            code=row.error_code,
            message=row.error_message,
            graph_notes=list(row.graph_notes or []),
        )


@strawberry.type
class IngestJob:
    id: strawberry.ID
    total: int
    pending: int
    indexed: int
    unchanged: int
    failed: int
    chunks: int
    done: bool
    created_at: datetime
    finished_at: datetime | None
    graphed: int = strawberry.field(
        description="Documents of this job whose current version is graphed."
    )
    entities: int
    facts: int = strawberry.field(
        description="Current (not invalidated) facts from this job's documents."
    )
    graph_failed: int = strawberry.field(
        description="Documents of this job whose graph projection was given up on after its"
        " retries (they stay INDEXED and searchable; their graphNotes say why)."
    )
    bytes: float = strawberry.field(description="Submitted content, in bytes.")
    bytes_done: float = strawberry.field(description="Bytes of the items no longer pending.")
    summary: strawberry.Private[JobSummary]

    @classmethod
    def of(cls, s: JobSummary) -> IngestJob:
        return cls(
            id=strawberry.ID(str(s.id)),
            total=s.total,
            pending=s.pending,
            indexed=s.indexed,
            unchanged=s.unchanged,
            failed=s.failed,
            chunks=s.chunks,
            done=s.finished_at is not None,
            created_at=s.created_at,
            finished_at=s.finished_at,
            graphed=s.graphed,
            entities=s.entities,
            facts=s.facts,
            graph_failed=s.graph_failed,
            bytes=s.bytes,
            bytes_done=s.bytes_done,
            summary=s,
        )

    @strawberry.field(description="Each submitted item's outcome, in submission order.")
    async def outcomes(self, info: Info) -> list[DocumentOutcome]:
        tenant = await info.context.tenant()
        rows = await info.context.services.ingestion.outcomes(tenant, self.summary.id)
        return [DocumentOutcome.of(row) for row in rows]


@strawberry.type
class IngestProgress:
    job_id: strawberry.ID
    total: int
    done: int
    indexed: int
    unchanged: int
    failed: int
    chunks: int
    graphed: int
    entities: int
    facts: int
    graph_failed: int
    bytes: float
    bytes_done: float
    final: bool = strawberry.field(
        description="Indexing is done and every indexed document is in the graph, or was"
        " given up on (graphFailed)."
    )

    @classmethod
    def of(cls, summary: JobSummary) -> IngestProgress:
        return cls(
            job_id=strawberry.ID(str(summary.id)),
            total=summary.total,
            done=summary.total - summary.pending,
            indexed=summary.indexed,
            unchanged=summary.unchanged,
            failed=summary.failed,
            chunks=summary.chunks,
            graphed=summary.graphed,
            entities=summary.entities,
            facts=summary.facts,
            graph_failed=summary.graph_failed,
            bytes=summary.bytes,
            bytes_done=summary.bytes_done,
            final=summary.finished_at is not None
            and summary.graphed + summary.graph_failed >= summary.indexed + summary.unchanged,
        )
