"""One document's contribution to the knowledge graph, from its chunks' extractions.

Entities are resolved across the whole document; mentions keep their chunk and spans;
co-occurrences are weighted per entity pair; facts keep their evidence chunk, span, sentence
and the date their sentence names.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar
from uuid import UUID

from ingest.dates import DateValue
from ingest.extraction import ChunkGraph, Fact, Named
from ingest.mentions import Mention
from ingest.resolution import ResolvedEntity, resolve
from ingest.titles import TitleSubject, title_mention

Stored = TypeVar("Stored", bound=Hashable)
Span = tuple[int, int]


@dataclass(frozen=True)
class MainChunk:
    id: UUID
    start: int
    content: str


@dataclass(frozen=True)
class FactRow:
    subject: int  # entity indexes
    predicate: str
    object: int
    chunk_id: UUID
    span_start: int
    span_end: int
    sentence: str
    valid_from: DateValue | None


@dataclass(frozen=True)
class DocumentProjection:
    """Everything the graph holds for one document, as parameter rows (ids as strings): what
    the store reads back and Neo4j is written from."""

    document_id: str
    chunks: list[dict[str, Any]]
    entities: list[dict[str, Any]]
    mentions: list[dict[str, Any]]
    cooccurrences: list[dict[str, Any]]
    facts: list[dict[str, Any]]


@dataclass
class DocumentGraph:
    entities: list[ResolvedEntity] = field(default_factory=list)
    mentions: dict[tuple[int, UUID], list[tuple[int, int]]] = field(default_factory=dict)
    cooccurrences: Counter[tuple[int, int]] = field(default_factory=Counter)
    facts: list[FactRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    named: dict[UUID, list[Named]] = field(default_factory=dict)  # of the chunks read


def build(
    text: str,
    chunks: list[MainChunk],
    graphs: list[ChunkGraph],
    subject: TitleSubject | None = None,
) -> DocumentGraph:
    if subject is not None:
        graphs = [
            replace(g, mentions=[*g.mentions, title_mention(subject, c.start)])
            for c, g in zip(chunks, graphs, strict=True)
        ]
    all_mentions: list[Mention] = [m for g in graphs for m in g.mentions]
    entities, owner = resolve(text, all_mentions)
    result = DocumentGraph(entities=entities)
    result.notes = sorted({note for g in graphs for note in g.notes})
    result.named = {
        c.id: g.named for c, g in zip(chunks, graphs, strict=True) if g.named is not None
    }
    base = 0
    mentions: dict[tuple[int, UUID], list[tuple[int, int]]] = defaultdict(list)
    for chunk, graph in zip(chunks, graphs, strict=True):
        local = owner[base : base + len(graph.mentions)]
        for mention, entity in zip(graph.mentions, local, strict=True):
            mentions[(entity, chunk.id)].append((mention.start, mention.end))
        for a, b in graph.pairs:
            if local[a] != local[b]:
                result.cooccurrences[(min(local[a], local[b]), max(local[a], local[b]))] += 1
        result.facts += [
            _fact_row(fact, local, chunk.id)
            for fact in graph.facts
            if local[fact.subject] != local[fact.object]
        ]
        base += len(graph.mentions)
    result.mentions = dict(mentions)
    return result


def _fact_row(fact: Fact, local: list[int], chunk_id: UUID) -> FactRow:
    return FactRow(
        local[fact.subject],
        fact.predicate,
        local[fact.object],
        chunk_id,
        fact.sentence_start,
        fact.sentence_end,
        fact.sentence,
        fact.valid_from,
    )


@dataclass(frozen=True)
class ResolvedGraph(Generic[Stored]):
    """A document's graph rows keyed by the collection's entities, not the document's own.

    Two of the document's entities can resolve to one stored entity (a name the collection
    already knows under one type, an alias): their mentions of one chunk merge, spans united,
    their pair becomes no pair, and a fact between them no fact.
    """

    mentions: dict[tuple[Stored, UUID], list[Span]]
    cooccurrences: dict[tuple[Stored, Stored], int]
    facts: list[ResolvedFact[Stored]]


@dataclass(frozen=True)
class ResolvedFact(Generic[Stored]):
    subject: Stored
    object: Stored
    row: FactRow


def resolve_onto(graph: DocumentGraph, ids: Sequence[Stored]) -> ResolvedGraph[Stored]:
    """`graph` with each local entity index replaced by `ids[index]`."""
    return ResolvedGraph(
        mentions=_merged_mentions(graph, ids),
        cooccurrences=_merged_pairs(graph, ids),
        facts=[
            ResolvedFact(ids[f.subject], ids[f.object], f)
            for f in graph.facts
            if ids[f.subject] != ids[f.object]
        ],
    )


def _merged_mentions(
    graph: DocumentGraph, ids: Sequence[Stored]
) -> dict[tuple[Stored, UUID], list[Span]]:
    merged: dict[tuple[Stored, UUID], set[Span]] = defaultdict(set)
    for (entity, chunk), spans in graph.mentions.items():
        merged[(ids[entity], chunk)].update(spans)
    return {key: sorted(spans) for key, spans in merged.items()}


def _merged_pairs(graph: DocumentGraph, ids: Sequence[Stored]) -> dict[tuple[Stored, Stored], int]:
    """Pairs keep the orientation they were first seen in, so nothing changes without a merge."""
    merged: dict[tuple[Stored, Stored], int] = {}
    for (a, b), weight in graph.cooccurrences.items():
        pair = (ids[a], ids[b])
        if pair[0] == pair[1]:
            continue
        key = pair if (pair[1], pair[0]) not in merged else (pair[1], pair[0])
        merged[key] = merged.get(key, 0) + weight
    return merged
