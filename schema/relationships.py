"""GraphQL types for how entities are connected: edges with evidence, paths, timelines."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry

from app.knowledge import relationships as views
from app.knowledge.relationships import Edge, Evidence
from schema.context import Info
from schema.documents import Document
from schema.entities import Entity


@strawberry.type(description="A stretch of a document's text, in characters.")
class Span:
    start: int
    end: int


@strawberry.type(description="Where an edge comes from: a document, its chunk and span.")
class EdgeEvidence:
    document_id: strawberry.ID
    chunk_id: strawberry.ID | None
    span: Span | None
    sentence: str | None = strawberry.field(description="The sentence stating a fact.")

    @classmethod
    def of(cls, evidence: Evidence) -> EdgeEvidence:
        span = None
        if evidence.span_start is not None and evidence.span_end is not None:
            span = Span(start=evidence.span_start, end=evidence.span_end)
        chunk = strawberry.ID(evidence.chunk_id) if evidence.chunk_id else None
        return cls(
            document_id=strawberry.ID(evidence.document_id),
            chunk_id=chunk,
            span=span,
            sentence=evidence.sentence,
        )

    @strawberry.field(description="Null when the document was deleted a moment ago.")
    async def document(self, info: Info) -> Document | None:
        row = await info.context.loaders.documents.load(str(self.document_id))
        return None if row is None else Document.of(row)


@strawberry.enum
class RelationshipKind(Enum):
    FACT = "FACT"
    CO_OCCURRENCE = "CO_OCCURRENCE"


@strawberry.type(
    description="An edge between two entities. A FACT is a typed statement from one"
    " sentence, with valid time (validFrom/validTo, ISO dates at the text's precision) and"
    " system time (recordedAt/invalidatedAt). A CO_OCCURRENCE merges the documents where"
    " both entities appear together and has no time of its own."
)
class Relationship:
    kind: RelationshipKind
    fact_id: strawberry.ID | None
    predicate: str | None
    source: strawberry.ID
    target: strawberry.ID
    weight: float
    valid_from: str | None
    valid_from_precision: str | None
    valid_to: str | None
    recorded_at: datetime | None
    invalidated_at: datetime | None
    superseded_by: strawberry.ID | None = strawberry.field(
        description="The fact that replaced this one, for facts that allow one value at a time."
    )
    evidence: list[EdgeEvidence]

    @classmethod
    def of(cls, edge: Edge) -> Relationship:
        return cls(
            kind=RelationshipKind(edge.kind),
            fact_id=_id(edge.fact_id),
            predicate=edge.predicate,
            source=strawberry.ID(edge.source),
            target=strawberry.ID(edge.target),
            weight=edge.weight,
            valid_from=edge.valid_from,
            valid_from_precision=edge.valid_from_precision,
            valid_to=edge.valid_to,
            recorded_at=edge.recorded_at,
            invalidated_at=edge.invalidated_at,
            superseded_by=_id(edge.superseded_by),
            evidence=[EdgeEvidence.of(e) for e in edge.evidence],
        )


@strawberry.type
class NeighborhoodNode:
    entity: Entity
    hops: int


@strawberry.type(description="Entities near one entity, and the edges among them.")
class Neighborhood:
    center: Entity
    nodes: list[NeighborhoodNode]
    edges: list[Relationship]
    truncated: bool = strawberry.field(
        description="A bound cut the answer short: a hub's edges, a step's fan-out, or first."
    )

    @classmethod
    def of(cls, view: views.NeighborhoodView) -> Neighborhood:
        return cls(
            center=Entity.of(view.center),
            nodes=[NeighborhoodNode(entity=Entity.of(row), hops=hops) for row, hops in view.nodes],
            edges=[Relationship.of(edge) for edge in view.edges],
            truncated=view.truncated,
        )


@strawberry.type(description="One step of a path: an entity, the edge it follows, the next.")
class PathStep:
    from_: Entity = strawberry.field(name="from")
    relationship: Relationship
    to: Entity


@strawberry.type(description="An ordered chain of entities and the evidenced edges between.")
class RelationshipPath:
    length: int
    weight: float = strawberry.field(description="Total weight of the evidence along the path.")
    entities: list[Entity]
    steps: list[PathStep]

    @classmethod
    def of(cls, path: views.RelationshipPath) -> RelationshipPath:
        return cls(
            length=len(path.steps),
            weight=path.weight,
            entities=[Entity.of(row) for row in path.entities],
            steps=[
                PathStep(
                    from_=Entity.of(s.source),
                    relationship=Relationship.of(s.edge),
                    to=Entity.of(s.target),
                )
                for s in path.steps
            ],
        )


@strawberry.type
class Paths:
    paths: list[RelationshipPath]
    truncated: bool

    @classmethod
    def of(cls, view: views.PathsView) -> Paths:
        return cls(paths=[RelationshipPath.of(p) for p in view.paths], truncated=view.truncated)


@strawberry.type
class TimelineFact:
    relationship: Relationship
    subject: Entity
    object: Entity
    invalidated: bool = strawberry.field(
        description="Later retracted (its document changed) or replaced by a newer fact."
    )
    replaced_by: strawberry.ID | None
    replaces: list[strawberry.ID] = strawberry.field(
        description="Facts in this timeline that this one replaced."
    )


@strawberry.type(description="The facts about an entity in valid-time order.")
class Timeline:
    entity: Entity
    facts: list[TimelineFact]

    @classmethod
    def of(cls, view: views.TimelineView) -> Timeline:
        replaces: dict[str, list[strawberry.ID]] = {}
        for fact in view.facts:
            if fact.superseded_by and fact.fact_id:
                replaces.setdefault(fact.superseded_by, []).append(strawberry.ID(fact.fact_id))
        return cls(
            entity=Entity.of(view.entity),
            facts=[
                TimelineFact(
                    relationship=Relationship.of(fact),
                    subject=Entity.of(view.entities[fact.source]),
                    object=Entity.of(view.entities[fact.target]),
                    invalidated=fact.invalidated_at is not None or fact.superseded_by is not None,
                    replaced_by=_id(fact.superseded_by),
                    replaces=replaces.get(fact.fact_id or "", []),
                )
                for fact in view.facts
                if fact.source in view.entities and fact.target in view.entities
            ],
        )


def _id(value: str | None) -> strawberry.ID | None:
    return strawberry.ID(value) if value else None
