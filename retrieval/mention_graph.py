"""One collection's entity-chunk mentions held in memory, for the walk's subgraph
(store/subgraph.py) to read instead of Postgres.

Each node's edges are kept strongest first (by weight, then by the other end's id), so a
step that may examine only `scan` of a hub's edges examines its strongest, where the SQL
read takes whichever the index gives first. Below `scan` edges a node, both read the same
edges and the walk is the same.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

Edge = tuple[str, int]  # (the other end, the mention's weight)
Edges = tuple[Edge, ...]  # strongest first, ties by the other end's id


@dataclass(frozen=True)
class MentionGraph:
    version: Hashable  # what the collection's statistics said when the mentions were read
    chunks_of: dict[str, Edges]  # entity -> the chunks that mention it
    entities_of: dict[str, Edges]  # chunk -> the entities it mentions
    document_of: dict[str, str]  # chunk -> its document
    size: int  # the mentions held

    @classmethod
    def of(cls, version: Hashable, mentions: Iterable[tuple[str, str, int, str]]) -> MentionGraph:
        """From (entity, chunk, weight, document) rows."""
        chunks_of: dict[str, list[Edge]] = {}
        entities_of: dict[str, list[Edge]] = {}
        document_of: dict[str, str] = {}
        one: dict[str, str] = {}  # each id's string once: rows bring a copy per mention
        for row in mentions:
            entity, chunk, weight = (
                one.setdefault(row[0], row[0]),
                one.setdefault(row[1], row[1]),
                row[2],
            )
            chunks_of.setdefault(entity, []).append((chunk, weight))
            entities_of.setdefault(chunk, []).append((entity, weight))
            document_of.setdefault(chunk, one.setdefault(row[3], row[3]))
        size = sum(len(edges) for edges in chunks_of.values())
        return cls(version, _each(chunks_of), _each(entities_of), document_of, size)

    def step(self, sources: list[str], scan: int, from_entities: bool) -> dict[str, Edges]:
        """Each source's strongest `scan` edges: entity -> chunks when `from_entities`, else
        chunk -> entities."""
        table = self.chunks_of if from_entities else self.entities_of
        return {s: table[s][:scan] for s in sources if s in table}

    def fewest_documents(self, seeds: Mapping[str, str], most: int) -> int | None:
        """The fewest documents that mention any one name, at most `most`, as
        store/mentions.fewest_documents counts them; None for no names. `seeds` maps entity
        ids to the name key each was linked by."""
        by_name: dict[str, set[str]] = {}
        for entity, name in seeds.items():
            found = by_name.setdefault(name, set())
            for chunk, _ in self.chunks_of.get(entity, ()):
                if len(found) >= most:  # a hub's thousands of chunks are not all counted
                    break
                found.add(self.document_of[chunk])
        return min((min(len(d), most) for d in by_name.values()), default=None)


def strongest_first(edges: list[Edge]) -> Edges:
    return tuple(sorted(edges, key=lambda e: (-e[1], e[0])))


def _each(edges: dict[str, list[Edge]]) -> dict[str, Edges]:
    return {node: strongest_first(found) for node, found in edges.items()}
