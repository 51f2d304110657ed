"""What search produces: each leg's ranking, and the typed hits of a response.

A hit carries its document, its spans and its texts as values, so the GraphQL layer and the
answers capability read fields, never database rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from graph.edges import RelationshipPath
from retrieval.highlights import Highlight
from retrieval.request import Leg


@dataclass
class LegResult:
    ranked: list[UUID] = field(default_factory=list)
    scores: dict[UUID, float] = field(default_factory=dict)
    trails: dict[UUID, list[str]] = field(default_factory=dict)  # the graph walk's, per chunk
    terms: list[str] = field(default_factory=list)
    seeds: dict[str, str] = field(default_factory=dict)  # graph leg: linked entity -> its key
    truncated: bool = False  # graph leg: the walk hit a bound (seeds, frontier, edges)
    seed_documents: int = 1  # graph leg: the fewest documents any one seed is mentioned in
    titled: bool = False  # graph leg: the walk starts at documents the query names by title

    @classmethod
    def of(cls, scored: list[tuple[UUID, float]]) -> LegResult:
        return cls([c for c, _ in scored], dict(scored))


@dataclass(frozen=True)
class Span:
    """Where a hit is in its document: CHARS offsets, the PAGES they fall on, or the whole
    FILE for a record."""

    unit: str
    start: int
    end: int


@dataclass(frozen=True)
class HitDocument:
    id: UUID
    collection_id: UUID
    title: str
    external_id: str
    content_type: str
    metadata: dict[str, Any]
    source_type: str


@dataclass
class SearchHit:
    chunk_id: UUID
    score: float
    methods: list[Leg]
    document: HitDocument
    section: str | None
    spans: list[Span]
    text: str
    context: str
    highlights: list[Highlight]
    path: RelationshipPath | None


@dataclass
class SearchOutcome:
    query_id: UUID
    hits: list[SearchHit]
    degraded: bool
    missing_legs: list[Leg]
    timings_ms: dict[str, float]
    graph_pending: int = 0  # documents in scope indexed but not yet in the graph
    graph_truncated: bool = False  # the graph walk explored only the strongest part
