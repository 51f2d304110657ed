"""One collection's entity-chunk mentions held in memory, for the walk's subgraph
(store/subgraph.py) to read instead of Postgres.

Each node's edges are kept strongest first (by weight, then by the other end's id), so a
step that may examine only `scan` of a hub's edges examines its strongest, where the SQL
read takes whichever the index gives first. Below `scan` edges a node, both read the same
edges and the walk is the same.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

Edge = tuple[str, int]  # (the other end, the mention's weight)
Edges = tuple[Edge, ...]  # strongest first, ties by the other end's id


@dataclass(frozen=True)
class MentionGraph:
    version: Hashable  # what the collection's statistics said when the mentions were read
    chunks_of: dict[str, Edges]  # entity -> the chunks that mention it
    entities_of: dict[str, Edges]  # chunk -> the entities it mentions
    size: int  # the mentions held

    @classmethod
    def of(cls, version: Hashable, mentions: Iterable[tuple[str, str, int]]) -> MentionGraph:
        """From (entity, chunk, weight) rows."""
        chunks_of: dict[str, list[Edge]] = {}
        entities_of: dict[str, list[Edge]] = {}
        one: dict[str, str] = {}  # each id's string once: rows bring a copy per mention
        for row in mentions:
            entity, chunk, weight = (
                one.setdefault(row[0], row[0]),
                one.setdefault(row[1], row[1]),
                row[2],
            )
            chunks_of.setdefault(entity, []).append((chunk, weight))
            entities_of.setdefault(chunk, []).append((entity, weight))
        size = sum(len(edges) for edges in chunks_of.values())
        return cls(version, _each(chunks_of), _each(entities_of), size)

    def step(self, sources: list[str], scan: int, from_entities: bool) -> dict[str, Edges]:
        """Each source's strongest `scan` edges: entity -> chunks when `from_entities`, else
        chunk -> entities."""
        table = self.chunks_of if from_entities else self.entities_of
        return {s: table[s][:scan] for s in sources if s in table}


def strongest_first(edges: list[Edge]) -> Edges:
    return tuple(sorted(edges, key=lambda e: (-e[1], e[0])))


def _each(edges: dict[str, list[Edge]]) -> dict[str, Edges]:
    return {node: strongest_first(found) for node, found in edges.items()}
