"""GraphQL types for documents, ingest jobs, records and vocabulary rules."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any, cast

import strawberry
from strawberry.scalars import JSON

from app.collections.documents import DocumentRow, SectionRow, encode_cursor
from app.ingestion.submit import ItemOutcome, JobSummary
from retrieval.vocabulary import VocabularyRule as RuleRow
from schema.context import Info


@strawberry.enum
class SourceType(Enum):
    DOCUMENT = "DOCUMENT"
    RECORD = "RECORD"


@strawberry.enum
class DocumentStatus(Enum):
    INDEXED = "INDEXED"
    GRAPHED = "GRAPHED"


@strawberry.enum
class ItemStatus(Enum):
    PENDING = "PENDING"
    INDEXED = "INDEXED"
    UNCHANGED = "UNCHANGED"
    FAILED = "FAILED"


@strawberry.input(description="One document. Give `text`, or base64 `data` for binary formats.")
class DocumentInput:
    external_id: str | None = None
    path: str | None = None
    title: str | None = None
    content_type: str | None = strawberry.field(
        default=None, description="text/plain, text/markdown, text/html or application/pdf"
    )
    text: str | None = None
    data: str | None = None
    metadata: JSON | None = None


@strawberry.type
class Section:
    ordinal: int
    level: int
    kind: str
    label: str
    title: str
    path: str
    char_start: int
    char_end: int

    @classmethod
    def of(cls, row: SectionRow) -> Section:
        return cls(
            ordinal=row.ordinal,
            level=row.level,
            kind=row.kind,
            label=row.label,
            title=row.title,
            path=row.path,
            char_start=row.char_start,
            char_end=row.char_end,
        )


@strawberry.type(description="A record's fields as stored; sensitive values are masked.")
class StoredRecord:
    schema: str
    fields: JSON


@strawberry.type
class Document:
    id: strawberry.ID
    external_id: str
    title: str
    content_type: str
    source_type: SourceType
    status: DocumentStatus
    version: int
    chunk_count: int
    metadata: JSON
    created_at: datetime
    updated_at: datetime
    graph_notes: list[str] = strawberry.field(
        description="What graph extraction had to say: languages it skips, caps it hit, errors."
    )
    row: strawberry.Private[DocumentRow]

    @classmethod
    def of(cls, row: DocumentRow) -> Document:
        return cls(
            id=strawberry.ID(str(row.id)),
            external_id=row.external_id,
            title=row.title,
            content_type=row.content_type,
            source_type=SourceType(row.source_type),
            status=DocumentStatus(row.status),
            version=row.version,
            chunk_count=row.chunk_count,
            metadata=cast(JSON, row.metadata),
            created_at=row.created_at,
            updated_at=row.updated_at,
            graph_notes=list(row.graph_notes or []),
            row=row,
        )

    @strawberry.field(description="The section map: headings and named units with ranges.")
    async def sections(self, info: Info) -> list[Section]:
        tenant = await info.context.tenant()
        rows = await info.context.services.documents.sections(tenant, self.row.id)
        return [Section.of(row) for row in rows]

    @strawberry.field
    async def record(self, info: Info) -> StoredRecord | None:
        if self.row.source_type != "RECORD":
            return None
        tenant = await info.context.tenant()
        found = await info.context.services.documents.record(tenant, self.row.id)
        return (
            None
            if found is None
            else StoredRecord(schema=found.schema, fields=cast(JSON, found.fields))
        )


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: str | None


@strawberry.type
class DocumentEdge:
    cursor: str
    node: Document


@strawberry.type
class DocumentConnection:
    edges: list[DocumentEdge]
    page_info: PageInfo

    @classmethod
    def of(cls, rows: list[DocumentRow], has_next: bool) -> DocumentConnection:
        edges = [DocumentEdge(cursor=encode_cursor(r), node=Document.of(r)) for r in rows]
        end = edges[-1].cursor if edges else None
        return cls(edges=edges, page_info=PageInfo(has_next_page=has_next, end_cursor=end))


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


@strawberry.type
class DeleteResult:
    deleted: bool
    chunks_removed: int


@strawberry.enum
class FieldType(Enum):
    STRING = "STRING"
    TEXT = "TEXT"
    INTEGER = "INTEGER"
    NUMBER = "NUMBER"
    BOOLEAN = "BOOLEAN"
    DATE = "DATE"


@strawberry.input
class RecordFieldInput:
    name: str
    type: FieldType
    searchable: bool = True
    sensitive: bool = False
    required: bool = False


@strawberry.type
class RecordField:
    name: str
    type: FieldType
    searchable: bool
    sensitive: bool
    required: bool


@strawberry.type
class RecordSchema:
    id: strawberry.ID
    name: str
    fields: list[RecordField]

    @classmethod
    def of(cls, schema_id: Any, name: str, fields: list[dict[str, Any]]) -> RecordSchema:
        return cls(
            id=strawberry.ID(str(schema_id)),
            name=name,
            fields=[
                RecordField(
                    name=f["name"],
                    type=FieldType(f["type"]),
                    searchable=f["searchable"],
                    sensitive=f["sensitive"],
                    required=f["required"],
                )
                for f in fields
            ],
        )


@strawberry.input
class RecordInput:
    id: str
    fields: JSON


@strawberry.enum
class VocabularyRuleKind(Enum):
    SYNONYMS = "SYNONYMS"
    EXPANSION = "EXPANSION"


@strawberry.input(description="SYNONYMS: terms that mean the same. EXPANSION: term -> terms.")
class VocabularyRuleInput:
    kind: VocabularyRuleKind
    terms: list[str]
    term: str | None = None


@strawberry.type
class VocabularyRule:
    kind: VocabularyRuleKind
    term: str | None
    terms: list[str]

    @classmethod
    def of(cls, row: RuleRow) -> VocabularyRule:
        return cls(kind=VocabularyRuleKind(row.kind), term=row.term, terms=row.terms)
