"""A bounded entity-chunk subgraph around a walk's start, read hop by hop from the mentions
table, the system of record that Neo4j's MENTIONED_IN edges are projected from.

The walk reads Postgres rather than Neo4j because it is a handful of index lookups per
hop, and Postgres answers them about 25 times faster (200 entities' mentions in 4 ms against
about 100 ms from the local Neo4j, bench/RESULTS.md); it also sees a document's mentions
as soon as they are written, with no projection lag. Relationship paths and their evidence
still come from Neo4j.

The start is seed entities and start chunks (named or anchor passages, whose entities join
the first hop). Each step, in either direction, expands at most `MAX_FRONTIER` nodes (the
strongest: seeds before weighted entities, and named chunks before anchors, by weight; the
chunks and entities reached by their strongest edge), examines a bounded number of
mentions per node (`retrieval.bounds.scan_per_node`), keeps at most `fanout` of them per
node (strongest first), and stops the walk once the subgraph holds `max_edges`: a hub entity
cannot pull in the whole collection, nor a query naming thousands of things. Past the first
hop only the `beam` entities the walk most reaches are expanded: little of the walk's mass
goes to the rest. Any of these cuts marks the subgraph `truncated`.

Each step's mentions come from `Steps`: the SQL read (`sql_steps`), or a collection's
mentions held in memory (`held_steps`, retrieval/mention_graph.py), which a search uses
while they are current.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from retrieval.bounds import capped, scan_per_node
from retrieval.mention_graph import Edge, Edges, MentionGraph, strongest_first
from retrieval.ppr import Restart, Subgraph, edge_ends, highest, personalized_pagerank
from store.arrays import uuid_array
from store.pool import Conn
from store.tenants import Tenant, visible

# A mention's weight is stored with it (migration 0016), as store/knowledge.mention_weight.
_ENTITY_TO_CHUNKS = (
    "SELECT s.id::text, m.chunk_id::text, m.weight FROM unnest(%s::uuid[]) AS s(id)"
    " CROSS JOIN LATERAL (SELECT chunk_id, weight FROM mentions"
    " WHERE entity_id = s.id AND tenant_id = %s{visible} LIMIT %s) m"
)
_CHUNK_TO_ENTITIES = (
    "SELECT s.id::text, m.entity_id::text, m.weight FROM unnest(%s::uuid[]) AS s(id)"
    " CROSS JOIN LATERAL (SELECT entity_id, weight FROM mentions"
    " WHERE chunk_id = s.id AND tenant_id = %s{visible} LIMIT %s) m"
)
# A scoped key's walk reads only mentions in documents it may see.
_VISIBLE = " AND EXISTS (SELECT 1 FROM documents d WHERE d.id = mentions.document_id{seen})"


# One step's read: (sources, edges examined per source, whether from entities) -> each
# source's edges (target, weight), strongest first, ties by the target's id.
Steps = Callable[[list[str], int, bool], Awaitable[dict[str, Edges]]]


@dataclass(frozen=True)
class Bounds:
    fanout: int  # mentions kept per node
    max_edges: int
    beam: int | None = None  # entities expanded per hop after the first; None: all


def sql_steps(conn: Conn, tenant: Tenant) -> Steps:
    """Steps read from the mentions table, as much of it as the tenant's key may see."""
    seen, scopes = visible(tenant, "d")
    condition = _VISIBLE.format(seen=seen) if seen else ""

    async def step(sources: list[str], scan: int, from_entities: bool) -> dict[str, Edges]:
        query = _ENTITY_TO_CHUNKS if from_entities else _CHUNK_TO_ENTITIES
        params = (uuid_array(sources), tenant.id, *scopes, scan)
        cursor = await conn.execute(query.format(visible=condition), params)
        by_source: dict[str, list[Edge]] = {}
        for source, target, weight in await cursor.fetchall():
            by_source.setdefault(source, []).append((target, weight))
        return {s: strongest_first(edges) for s, edges in by_source.items()}

    return step


def held_steps(graph: MentionGraph) -> Steps:
    """Steps read from one collection's mentions held in memory (a key without content
    scopes: the graph holds every document's mentions)."""

    async def step(sources: list[str], scan: int, from_entities: bool) -> dict[str, Edges]:
        return graph.step(sources, scan, from_entities)

    return step


async def entity_chunk_subgraph(
    steps: Steps, start: Restart, hops: int, bounds: Bounds
) -> Subgraph:
    """Seeds -> chunks mentioning them -> entities in those chunks -> their chunks ...:
    chunks up to `hops` entity hops away (hops=1: the chunks mentioning a seed or sharing an
    entity with a start chunk)."""
    sub = Subgraph(roots={*start.nodes})
    entities = _strongest_entities(start)
    found = await _start_entities(steps, _strongest_chunks(start), bounds, sub)
    entities += [e for e in found if e not in entities]
    seen = set(entities)
    for hop in range(hops):
        if hop > 0:
            entities = _beam(sub, start, entities, bounds.beam)
        chunks = await _expand(steps, entities, bounds, sub, True)
        sub.chunks.update(chunks)
        if _full(sub, bounds) or not chunks or hop == hops - 1:
            break  # past the last hop, the chunks' other entities are beyond `hops`
        found = await _expand(steps, chunks, bounds, sub, False)
        entities = [e for e in found if e not in seen]
        seen.update(entities)
        if _full(sub, bounds):
            break
    return sub


def _full(sub: Subgraph, bounds: Bounds) -> bool:
    """Whether the subgraph holds its most edges; it is then marked truncated."""
    full = len(sub.edges) >= bounds.max_edges
    sub.truncated |= full
    return full


def _strongest_entities(start: Restart) -> list[str]:
    weighted = sorted(start.weighted, key=lambda pair: -pair[1])
    return list(dict.fromkeys([*start.seeds, *(e for e, _ in weighted)]))


def _strongest_chunks(start: Restart) -> list[str]:
    anchors = sorted(start.anchors, key=lambda pair: -pair[1])
    return list(dict.fromkeys([*start.chunks, *(c for c, _ in anchors)]))


async def _start_entities(
    steps: Steps, chunks: list[str], bounds: Bounds, sub: Subgraph
) -> list[str]:
    if not chunks:
        return []
    sub.chunks.update(chunks)
    return await _expand(steps, chunks, bounds, sub, False)


def _beam(sub: Subgraph, start: Restart, entities: list[str], beam: int | None) -> list[str]:
    """The frontier entities the walk over the subgraph so far reaches most."""
    if beam is None or len(entities) <= beam:
        return entities
    scores = personalized_pagerank(edge_ends(sub.edges), sub.edges, start)
    return highest(scores, entities, beam)


async def _expand(
    steps: Steps, ids: list[str], bounds: Bounds, sub: Subgraph, from_entities: bool
) -> list[str]:
    """One step from the strongest of `ids`: each source's `fanout` strongest mentions join
    the subgraph; the targets reached for the first time are returned, strongest first."""
    ids, cut = capped(ids)
    sub.truncated |= cut
    scan = scan_per_node(len(ids))
    reached: list[tuple[int, str]] = []  # (-weight, target): sorts strongest first, ties by id
    # Bound once: the loop below runs for each of thousands of edges.
    edges, parent, roots = sub.edges, sub.parent, sub.roots
    for source, targets in (await steps(ids, scan, from_entities)).items():
        sub.truncated |= len(targets) > bounds.fanout or len(targets) == scan
        # A start chunk is reached from a seed entity only, so that paths still end at a
        # seed and never loop.
        from_seed = from_entities and source in roots
        for target, weight in targets[: bounds.fanout]:
            edges[(source, target) if from_entities else (target, source)] = float(weight)
            if target not in parent and (from_seed or target not in roots):
                parent[target] = source
                reached.append((-weight, target))
    return [t for _, t in sorted(reached)]
