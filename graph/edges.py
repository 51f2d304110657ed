"""The values of the relationship API: an edge with its evidence, and a path of edges.

`RelationshipPath` is the one path type of the API; search hits found through the graph
carry it too. Values only: nothing here talks to Neo4j.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

EntityRow = dict[str, Any]


@dataclass(frozen=True)
class Evidence:
    document_id: str
    chunk_id: str | None
    span_start: int | None
    span_end: int | None
    sentence: str | None = None


@dataclass
class Edge:
    kind: str  # "FACT" or "CO_OCCURRENCE"
    source: str
    target: str
    weight: float
    evidence: list[Evidence] = field(default_factory=list)
    fact_id: str | None = None
    predicate: str | None = None
    valid_from: str | None = None
    valid_from_precision: str | None = None
    valid_to: str | None = None
    recorded_at: datetime | None = None
    invalidated_at: datetime | None = None
    superseded_by: str | None = None

    @property
    def pair(self) -> frozenset[str]:
        return frozenset((self.source, self.target))


@dataclass(frozen=True)
class PathStep:
    source: EntityRow
    edge: Edge
    target: EntityRow


@dataclass(frozen=True)
class RelationshipPath:
    """Entities end to end and the steps between them; one entity and no steps when a
    search hit mentions a query entity itself."""

    entities: list[EntityRow]
    steps: list[PathStep]
    weight: float


def path_of(
    ids: list[str],
    edges: dict[frozenset[str], list[Edge]],
    rows: dict[str, EntityRow],
    fallback: Callable[[str, str], Edge] | None = None,
) -> RelationshipPath | None:
    """The path through `ids`, each step on its strongest edge; `fallback` gives an edge for
    a pair that has none. None when a step has no edge or an entity is gone (a concurrent
    delete between the search and this read)."""
    steps, weight = [], 0.0
    for a, b in itertools.pairwise(ids):
        between = edges.get(frozenset((a, b))) or ([fallback(a, b)] if fallback else [])
        if not between or a not in rows or b not in rows:
            return None
        steps.append(PathStep(rows[a], strongest(between), rows[b]))
        weight += sum(e.weight for e in between)
    return RelationshipPath([rows[e] for e in ids], steps, weight)


def strongest(edges: list[Edge]) -> Edge:
    """A typed fact says more than a co-occurrence; among facts, the best supported."""
    return sorted(edges, key=lambda e: (e.kind != "FACT", -e.weight))[0]
