"""GraphQL types for documents: a document, its sections, and pages of documents."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import cast

import strawberry
from strawberry.scalars import JSON

from app.collections.documents import DocumentRow, SectionRow, encode_cursor
from app.tenancy.principal import Scope
from schema.context import Info
from schema.pagination import PageInfo
from schema.permissions import require
from schema.records import StoredRecord


@strawberry.enum
class SourceType(Enum):
    DOCUMENT = "DOCUMENT"
    RECORD = "RECORD"


@strawberry.enum
class DocumentStatus(Enum):
    INDEXED = "INDEXED"
    GRAPHED = "GRAPHED"


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
    access_scopes: list[str] | None = strawberry.field(
        default=None,
        description="Content scopes (org:acme, user:42): a key narrowed to content scopes sees"
        " the document only when it carries one of them. Default: the ingesting key's.",
    )


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

    @strawberry.field(
        description="A record's fields; sensitive values masked unless `unmasked`, which"
        " needs the sensitive:read scope."
    )
    async def record(self, info: Info, unmasked: bool = False) -> StoredRecord | None:
        if unmasked:
            await require(info, Scope.SENSITIVE_READ)
        if self.row.source_type != "RECORD":
            return None
        tenant = await info.context.tenant()
        found = await info.context.services.documents.record(tenant, self.row.id, unmasked)
        return (
            None
            if found is None
            else StoredRecord(schema=found.schema, fields=cast(JSON, found.fields))
        )


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
class DeleteResult:
    deleted: bool
    chunks_removed: int
