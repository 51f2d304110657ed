"""GraphQL types for search, span reads and the search log."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import cast

import strawberry
from strawberry.scalars import JSON

from app.collections.spans import SpanRequest, SpanText
from app.search import results
from app.search.logs import SearchLog
from retrieval.request import Filters, Leg, MetadataFilter, Mode, ResultType, SearchRequest
from schema.relationships import RelationshipPath

SearchMode = strawberry.enum(Mode, description="HYBRID runs the legs together; the others one.")
SearchLeg = strawberry.enum(Leg)
SearchResultType = strawberry.enum(
    ResultType, description="PASSAGE: one span per hit. FILE: per document, up to three spans."
)


@strawberry.enum
class DiscoveryMethod(Enum):
    SEMANTIC = "SEMANTIC"
    KEYWORD = "KEYWORD"
    SECTION = "SECTION"
    GRAPH = "GRAPH"
    IMAGE = "IMAGE"


@strawberry.enum
class SpanUnit(Enum):
    CHARS = "CHARS"
    PAGES = "PAGES"
    SECONDS = "SECONDS"
    FILE = "FILE"


@strawberry.input(description="One metadata condition: equals, or a range (atLeast/atMost).")
class MetadataFilterInput:
    key: str
    equals: JSON | None = None
    at_least: JSON | None = None
    at_most: JSON | None = None


@strawberry.input
class SearchFiltersInput:
    metadata: list[MetadataFilterInput] | None = None
    document_ids: list[strawberry.ID] | None = None
    created_from: datetime | None = None
    created_to: datetime | None = None

    def to_filters(self) -> Filters:
        return Filters(
            metadata=tuple(
                MetadataFilter(m.key, m.equals, m.at_least, m.at_most) for m in self.metadata or []
            ),
            document_ids=tuple(str(i) for i in self.document_ids or []),
            created_from=self.created_from,
            created_to=self.created_to,
        )


@strawberry.input
class GraphSearchInput:
    hops: int = 2
    as_of: datetime | None = None
    second_round: bool | None = strawberry.field(
        default=None,
        description="HYBRID only: a second round searches again for the entities the first"
        " round's top passages name near the query's relation words (bridges), and fuses"
        " what it finds. On in HYBRID unless false; it costs about 4 ms (bench/RESULTS.md).",
    )
    match_facts: bool = strawberry.field(
        default=False,
        description="GRAPH leg: the walk also starts from the entities of the typed facts"
        " nearest the query (about the entities it names, or any when it names none), so"
        " it reaches people and things the query never names. Off by default: on the"
        " shared benchmarks, whose facts are sparse, it was neutral (bench/RESULTS.md).",
    )


@strawberry.input
class SearchInput:
    collections: list[str]
    query: str
    mode: SearchMode = Mode.HYBRID  # type: ignore[valid-type]
    top_k: int = 10
    result_type: SearchResultType = ResultType.PASSAGE  # type: ignore[valid-type]
    filters: SearchFiltersInput | None = None
    min_score: float | None = None
    fail_closed: bool = False
    graph: GraphSearchInput | None = None
    legs: list[SearchLeg] | None = strawberry.field(  # type: ignore[valid-type]
        default=None, description="For HYBRID: which legs run (default all four)."
    )

    def to_request(self) -> SearchRequest:
        graph = self.graph or GraphSearchInput()
        return SearchRequest(
            collections=tuple(self.collections),
            query=self.query,
            mode=Mode(self.mode),
            top_k=self.top_k,
            result_type=ResultType(self.result_type),
            filters=self.filters.to_filters() if self.filters else Filters(),
            min_score=self.min_score,
            fail_closed=self.fail_closed,
            hops=graph.hops,
            as_of=graph.as_of,
            second_round=graph.second_round,
            match_facts=graph.match_facts,
            legs=tuple(Leg(leg) for leg in self.legs) if self.legs is not None else tuple(Leg),
        )


@strawberry.type
class SearchSpan:
    unit: SpanUnit
    start: int
    end: int


@strawberry.type
class HitDocument:
    id: strawberry.ID
    title: str
    path: str = strawberry.field(description="The document's external id.")
    content_type: str
    metadata: JSON

    @classmethod
    def of(cls, document: results.HitDocument) -> HitDocument:
        return cls(
            id=strawberry.ID(str(document.id)),
            title=document.title,
            path=document.external_id,
            content_type=document.content_type,
            metadata=cast(JSON, document.metadata),
        )


@strawberry.type
class Highlight:
    term: str
    start: int
    end: int


@strawberry.type
class LegTiming:
    leg: str
    ms: float


@strawberry.type
class SearchHit:
    rank: int
    score: float = strawberry.field(
        description="Orders hits within this response only; not a confidence value."
    )
    source_type: str
    document: HitDocument
    section: str | None
    spans: list[SearchSpan]
    chunk_text: str
    context_text: str = strawberry.field(description="About 4,500 characters around the hit.")
    highlights: list[Highlight]
    discovery_methods: list[DiscoveryMethod]
    relationship_path: RelationshipPath | None = strawberry.field(
        description="For graph hits: from a query entity to an entity this chunk mentions."
    )

    @classmethod
    def of(cls, rank: int, hit: results.SearchHit) -> SearchHit:
        return cls(
            rank=rank,
            score=hit.score,
            source_type=hit.document.source_type,
            document=HitDocument.of(hit.document),
            section=hit.section,
            spans=[SearchSpan(unit=SpanUnit(s.unit), start=s.start, end=s.end) for s in hit.spans],
            chunk_text=hit.text,
            context_text=hit.context,
            highlights=[Highlight(term=h.term, start=h.start, end=h.end) for h in hit.highlights],
            discovery_methods=[DiscoveryMethod(m.value) for m in hit.methods],
            relationship_path=RelationshipPath.of(hit.path) if hit.path else None,
        )


@strawberry.type
class SearchResult:
    query_id: strawberry.ID
    hits: list[SearchHit]
    degraded: bool = strawberry.field(description="A leg failed; the others answered.")
    missing_legs: list[SearchLeg]  # type: ignore[valid-type]
    timings: list[LegTiming]
    graph_pending: int = strawberry.field(
        description="Documents in scope that are indexed but not yet in the knowledge graph"
        " (they are being projected). Keyword and semantic legs already see them; the graph"
        " leg does not, so while this is above zero a GRAPH or HYBRID result is not complete."
        " Documents whose projection was given up on are not counted: their graphNotes say why."
    )
    graph_truncated: bool = strawberry.field(
        description="The graph leg's walk reached one of its bounds (seed entities and"
        " passages, nodes expanded a step, edges in all) and explored only the strongest part"
        " of the graph around the query."
    )

    @classmethod
    def of(cls, outcome: results.SearchOutcome) -> SearchResult:
        return cls(
            query_id=strawberry.ID(str(outcome.query_id)),
            hits=[SearchHit.of(i + 1, hit) for i, hit in enumerate(outcome.hits)],
            degraded=outcome.degraded,
            missing_legs=list(outcome.missing_legs),
            timings=[LegTiming(leg=k, ms=v) for k, v in outcome.timings_ms.items()],
            graph_pending=outcome.graph_pending,
            graph_truncated=outcome.graph_truncated,
        )


@strawberry.input
class SpanInput:
    document_id: strawberry.ID
    unit: SpanUnit
    start: int = 0
    end: int = 0

    def to_request(self) -> SpanRequest:
        return SpanRequest(str(self.document_id), self.unit.value, self.start, self.end)


@strawberry.type
class SpanContent:
    document_id: strawberry.ID
    unit: SpanUnit
    start: int
    end: int
    text: str
    truncated: bool = strawberry.field(
        description="The text was cut: at 200,000 characters a span, or 1,000,000 a request."
    )

    @classmethod
    def of(cls, found: SpanText) -> SpanContent:
        span = found.request
        return cls(
            document_id=strawberry.ID(span.document_id),
            unit=SpanUnit(span.unit),
            start=span.start,
            end=span.end,
            text=found.text,
            truncated=found.truncated,
        )


@strawberry.type
class SearchLogEntry:
    query_id: strawberry.ID
    query: str
    mode: str
    result_count: int
    top_score: float | None
    latency_ms: float
    degraded: bool
    missing_legs: list[str]
    created_at: datetime

    @classmethod
    def of(cls, entry: SearchLog) -> SearchLogEntry:
        return cls(
            query_id=strawberry.ID(str(entry.id)),
            query=entry.query,
            mode=entry.mode,
            result_count=entry.result_count,
            top_score=entry.top_score,
            latency_ms=entry.latency_ms,
            degraded=entry.degraded,
            missing_legs=list(entry.missing_legs),
            created_at=entry.created_at,
        )
