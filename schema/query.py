"""Query root."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated

import strawberry

from app.health import check_backends
from app.ids import uuid_or_not_found
from app.knowledge.relationships import TimeFilter
from schema.access import ApiKey, UsageGroup, UsageTotal, Viewer
from schema.answers import (
    Answer,
    AnswerEffortInfo,
    AnswerInput,
    AnswerModelInfo,
    DocumentAnswerInput,
)
from schema.context import Info
from schema.documents import Document, DocumentConnection, DocumentStatus
from schema.entities import Entity, EntityMatch
from schema.jobs import IngestJob
from schema.permissions import ADMIN, ANSWER, IDENTIFIED, INGEST, RESEARCH, SEARCH
from schema.relationships import Neighborhood, Paths, Timeline
from schema.research import ResearchRun
from schema.search import SearchInput, SearchLogEntry, SearchResult, SpanContent, SpanInput
from schema.themes import Themes
from schema.types import BackendStatus, Collection, Health
from schema.vocabulary import VocabularyRule


@strawberry.type
class Query:
    @strawberry.field(
        permission_classes=IDENTIFIED,
        description="The calling key: what it may do, and the reason the API gives where not.",
    )
    async def viewer(self, info: Info) -> Viewer:
        return Viewer.of(await info.context.principal())

    @strawberry.field(permission_classes=SEARCH, description="The caller's collections, by name.")
    async def collections(self, info: Info) -> list[Collection]:
        tenant = await info.context.tenant()
        rows = await info.context.services.collections.list(tenant)
        return [Collection(row=row) for row in rows]

    @strawberry.field(
        permission_classes=SEARCH,
        description="One collection by name; NOT_FOUND when the caller has none.",
    )
    async def collection(self, info: Info, name: str) -> Collection:
        tenant = await info.context.tenant()
        return Collection(row=await info.context.services.collections.get(tenant, name))

    @strawberry.field(
        permission_classes=SEARCH, description="Whether PostgreSQL and Neo4j answer, and how fast."
    )
    async def health(self, info: Info) -> Health:
        backends = await check_backends(info.context.services)
        statuses = [BackendStatus.of(backend) for backend in backends]
        return Health(ok=all(b.up for b in backends), backends=statuses)

    @strawberry.field(
        permission_classes=SEARCH,
        description="A collection's documents, oldest first (Relay connection).",
    )
    async def documents(
        self,
        info: Info,
        collection: str,
        status: DocumentStatus | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> DocumentConnection:
        tenant = await info.context.tenant()
        found = await info.context.services.documents.page(
            tenant, collection, None if status is None else status.value, first, after
        )
        return DocumentConnection.of(found.rows, found.has_next)

    @strawberry.field(permission_classes=SEARCH)
    async def document(self, info: Info, id: strawberry.ID) -> Document:
        tenant = await info.context.tenant()
        return Document.of(await info.context.services.documents.get(tenant, str(id)))

    @strawberry.field(permission_classes=INGEST)
    async def job(self, info: Info, id: strawberry.ID) -> IngestJob:
        tenant = await info.context.tenant()
        return IngestJob.of(
            await info.context.services.ingestion.job(tenant, uuid_or_not_found(id, "job"))
        )

    @strawberry.field(permission_classes=ADMIN)
    async def vocabulary_rules(self, info: Info, collection: str) -> list[VocabularyRule]:
        tenant = await info.context.tenant()
        rules = await info.context.services.vocabulary.rules(tenant, collection)
        return [VocabularyRule.of(rule) for rule in rules]

    @strawberry.field(
        permission_classes=SEARCH,
        description="One entity by id; NOT_FOUND when the caller has none.",
    )
    async def entity(self, info: Info, id: strawberry.ID) -> Entity:
        tenant = await info.context.tenant()
        return Entity.of(await info.context.services.entities.get(tenant, str(id)))

    @strawberry.field(
        permission_classes=SEARCH,
        description="Entities whose name or alias matches, fuzzily, best first.",
    )
    async def entities(
        self,
        info: Info,
        collection: str,
        query: str,
        types: list[str] | None = None,
        first: int = 10,
    ) -> list[EntityMatch]:
        tenant = await info.context.tenant()
        rows = await info.context.services.entities.search(
            tenant, collection, query, types or [], first
        )
        return [EntityMatch(entity=Entity.of(row), score=float(row["score"])) for row in rows]

    @strawberry.field(
        permission_classes=SEARCH,
        description="Entities within `hops` of one entity and the evidenced edges among them."
        " `asOf` keeps facts valid then; `knownAt` keeps what the system knew then (default:"
        " now). `predicates` keeps only those facts (and drops co-occurrences).",
    )
    async def neighborhood(
        self,
        info: Info,
        entity: strawberry.ID,
        hops: int = 1,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        predicates: list[str] | None = None,
        first: int = 25,
    ) -> Neighborhood:
        tenant = await info.context.tenant()
        view = await info.context.services.relationships.neighborhood(
            tenant, str(entity), hops, TimeFilter.at(as_of, known_at), predicates or [], first
        )
        return Neighborhood.of(view)

    @strawberry.field(
        permission_classes=SEARCH,
        description="Paths between two entities: shortest first, then by evidence weight.",
    )
    async def paths(
        self,
        info: Info,
        from_: Annotated[strawberry.ID, strawberry.argument(name="from")],
        to: strawberry.ID,
        max_hops: int = 4,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        first: int = 10,
    ) -> Paths:
        tenant = await info.context.tenant()
        view = await info.context.services.relationships.paths(
            tenant, str(from_), str(to), max_hops, TimeFilter.at(as_of, known_at), first
        )
        return Paths.of(view)

    @strawberry.field(
        permission_classes=SEARCH,
        description="Facts about an entity ordered by validFrom (undated last), with the"
        " invalidated and the replacing ones flagged. `from`/`to` bound validFrom.",
    )
    async def timeline(
        self,
        info: Info,
        entity: strawberry.ID,
        from_: Annotated[date | None, strawberry.argument(name="from")] = None,
        to: date | None = None,
        known_at: datetime | None = None,
        first: int = 100,
    ) -> Timeline:
        tenant = await info.context.tenant()
        view = await info.context.services.relationships.timeline(
            tenant, str(entity), from_, to, TimeFilter.at(None, known_at).known_at, first
        )
        return Timeline.of(view)

    @strawberry.field(
        permission_classes=SEARCH,
        description="The collection's themes: communities of its entity graph (Leiden), largest"
        " first, each with its top entities by PageRank, best-supported facts and"
        " representative chunks. Recomputed in the background after ingestion.",
    )
    async def themes(self, info: Info, collection: str, first: int = 10) -> Themes:
        tenant = await info.context.tenant()
        return Themes.of(await info.context.services.themes.get(tenant, collection, first))

    @strawberry.field(
        permission_classes=SEARCH,
        description="Ranked passages: dense, keyword, section and graph legs fused. Each hit"
        " says how it was found; graph hits carry their relationship path. Scores order hits"
        " within one response and are not confidence values.",
    )
    async def search(self, info: Info, input: SearchInput) -> SearchResult:
        tenant = await info.context.tenant()
        outcome = await info.context.services.search.search(tenant, input.to_request())
        return SearchResult.of(outcome)

    @strawberry.field(
        permission_classes=ANSWER,
        description="A grounded, cited answer, checked against its passages.",
    )
    async def answer(self, info: Info, input: AnswerInput) -> Answer:
        principal = await info.context.principal()
        answers = info.context.services.answers
        return Answer.of(await answers.answer(principal, input.to_request()))

    @strawberry.field(
        permission_classes=ANSWER,
        description="A grounded, cited answer about one document, read whole with no search:"
        " the sources are its passages in reading order. Over 25 pages, or 75,000 characters"
        " for a document without pages (settings), DOCUMENT_TOO_LONG.",
    )
    async def document_answer(self, info: Info, input: DocumentAnswerInput) -> Answer:
        principal = await info.context.principal()
        answers = info.context.services.document_answers
        return Answer.of(await answers.answer(principal, input.to_request()))

    @strawberry.field(
        permission_classes=RESEARCH,
        description="A research run: its status, steps, passages read, draft brief, and its"
        " answer when DONE. NOT_FOUND for another tenant's.",
    )
    async def research_run(self, info: Info, id: strawberry.ID) -> ResearchRun:
        principal = await info.context.principal()
        return ResearchRun.of(await info.context.services.research.run(principal, str(id)))

    @strawberry.field(
        permission_classes=ANSWER,
        description="The efforts an answer can take, each with its time budget.",
    )
    async def answer_efforts(self, info: Info) -> list[AnswerEffortInfo]:
        return [AnswerEffortInfo.of(e) for e in info.context.services.answers.efforts()]

    @strawberry.field(
        permission_classes=ANSWER,
        description="The composers an answer can use; `extractive` needs no LLM.",
    )
    async def answer_models(self, info: Info) -> list[AnswerModelInfo]:
        principal = await info.context.principal()
        models = info.context.services.answers.models_for(principal)
        return [AnswerModelInfo.of(m) for m in models]

    @strawberry.field(
        permission_classes=SEARCH,
        description="The text of up to 50 spans, as search hits give them.",
    )
    async def read_spans(self, info: Info, spans: list[SpanInput]) -> list[SpanContent]:
        tenant = await info.context.tenant()
        found = await info.context.services.spans.read(tenant, [s.to_request() for s in spans])
        return [SpanContent.of(f) for f in found]

    @strawberry.field(
        permission_classes=ADMIN, description="Searches of a collection, newest first."
    )
    async def search_logs(
        self,
        info: Info,
        collection: str,
        from_: Annotated[datetime | None, strawberry.argument(name="from")] = None,
        to: datetime | None = None,
        first: int = 20,
    ) -> list[SearchLogEntry]:
        tenant = await info.context.tenant()
        found = await info.context.services.search_logs.recent(tenant, collection, from_, to, first)
        return [SearchLogEntry.of(entry) for entry in found]

    @strawberry.field(permission_classes=ADMIN, description="The tenant's API keys, oldest first.")
    async def api_keys(self, info: Info) -> list[ApiKey]:
        tenant = await info.context.tenant()
        return [ApiKey.of(row) for row in await info.context.services.keys.of_tenant(tenant)]

    @strawberry.field(
        permission_classes=ADMIN,
        description="Usage of models between `from` (inclusive) and `to`, summed per group.",
    )
    async def usage(
        self,
        info: Info,
        from_: Annotated[datetime, strawberry.argument(name="from")],
        to: datetime,
        group_by: UsageGroup = UsageGroup.DAY,
    ) -> list[UsageTotal]:
        tenant = await info.context.tenant()
        span = (from_, to)
        rows = await info.context.services.metering.totals(tenant, span, group_by.value)
        return [UsageTotal.of(row) for row in rows]
