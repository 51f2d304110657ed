"""A bounded entity-chunk subgraph around a walk's start, fetched hop by hop from Neo4j.

The start is seed entities and start chunks (named or anchor passages, whose entities join
the first hop). Each step examines a bounded number of mentions per node
(`graph.expansion.scan_per_node`), keeps at most `fanout` of them per node (strongest first)
and the whole subgraph at most `max_edges`, so a hub entity cannot pull in the whole
collection. Past the first hop only the `beam` entities the walk most reaches are expanded:
the last hop's fetch was most of the graph leg's time, and little of the walk's mass goes
to the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.driver import GraphStore
from graph.expansion import scan_per_node
from retrieval.ppr import Restart, Subgraph, personalized_pagerank

_ENTITY_TO_CHUNKS = (
    "UNWIND $ids AS id MATCH (e:Entity {id: id, tenant_id: $tenant})"
    " CALL (e) { MATCH (e)-[m:MENTIONED_IN]->(c:Chunk) WITH c, m LIMIT $scan RETURN c, m"
    " ORDER BY coalesce(m.weight, m.count) DESC, c.id LIMIT $limit }"
    " RETURN e.id AS entity, c.id AS chunk, coalesce(m.weight, m.count) AS weight"
)
_CHUNK_TO_ENTITIES = (
    "UNWIND $ids AS id MATCH (c:Chunk {id: id, tenant_id: $tenant})"
    " CALL (c) { MATCH (c)<-[m:MENTIONED_IN]-(e:Entity) WITH e, m LIMIT $scan RETURN e, m"
    " ORDER BY coalesce(m.weight, m.count) DESC, e.id LIMIT $limit }"
    " RETURN e.id AS entity, c.id AS chunk, coalesce(m.weight, m.count) AS weight"
)


@dataclass(frozen=True)
class Bounds:
    fanout: int  # mentions kept per node
    max_edges: int
    beam: int | None = None  # entities expanded per hop after the first; None: all


async def entity_chunk_subgraph(
    graph: GraphStore,
    tenant_id: str,
    start: Restart,
    hops: int,
    bounds: Bounds,
) -> Subgraph:
    """Seeds -> chunks mentioning them -> entities in those chunks -> their chunks ...:
    chunks up to `hops` entity hops away (hops=1: the chunks mentioning a seed or sharing an
    entity with a start chunk)."""
    sub = Subgraph(roots={*start.nodes})
    entities = list(dict.fromkeys(start.seeds))
    found = await _start_entities(graph, tenant_id, start.start_chunks, bounds, sub)
    entities += [e for e in found if e not in entities]
    seen = set(entities)
    for hop in range(hops):
        if hop > 0:
            entities = _beam(sub, start, entities, bounds.beam)
        chunks = await _expand(graph, _ENTITY_TO_CHUNKS, tenant_id, entities, bounds, sub, True)
        sub.chunks.update(chunks)
        if len(sub.edges) >= bounds.max_edges or not chunks:
            sub.truncated = sub.truncated or len(sub.edges) >= bounds.max_edges
            break
        if hop == hops - 1:
            break  # the last chunks' other entities are beyond `hops`
        found = await _expand(graph, _CHUNK_TO_ENTITIES, tenant_id, chunks, bounds, sub, False)
        entities = [e for e in found if e not in seen]
        seen.update(entities)
    return sub


async def _start_entities(
    graph: GraphStore, tenant_id: str, chunks: list[str], bounds: Bounds, sub: Subgraph
) -> list[str]:
    if not chunks:
        return []
    sub.chunks.update(chunks)
    return await _expand(graph, _CHUNK_TO_ENTITIES, tenant_id, chunks, bounds, sub, False)


def _beam(sub: Subgraph, start: Restart, entities: list[str], beam: int | None) -> list[str]:
    """The frontier entities the walk over the subgraph so far reaches most."""
    if beam is None or len(entities) <= beam:
        return entities
    nodes = sorted({n for edge in sub.edges for n in edge})
    scores = personalized_pagerank(nodes, sub.edges, start)
    return sorted(entities, key=lambda e: (-scores.get(e, 0.0), e))[:beam]


async def _expand(
    graph: GraphStore,
    query: str,
    tenant_id: str,
    ids: list[str],
    bounds: Bounds,
    sub: Subgraph,
    from_entities: bool,
) -> list[str]:
    fanout = bounds.fanout
    records = await graph.read(
        query, ids=ids, tenant=tenant_id, limit=fanout + 1, scan=scan_per_node(len(ids))
    )
    per_source: dict[str, int] = {}
    reached: list[str] = []
    for record in records:
        source, target = (
            (record["entity"], record["chunk"])
            if from_entities
            else (record["chunk"], record["entity"])
        )
        per_source[source] = per_source.get(source, 0) + 1
        if per_source[source] > fanout:
            sub.truncated = True
            continue
        sub.edges[(record["entity"], record["chunk"])] = float(record["weight"])
        if target not in sub.parent and _reachable(sub, source, target, from_entities):
            sub.parent[target] = source
            reached.append(target)
    return reached


def _reachable(sub: Subgraph, source: str, target: str, from_entities: bool) -> bool:
    """Whether `target` is reached from `source`: a start chunk is, from a seed entity only,
    so that paths still end at a seed and never loop."""
    return target not in sub.roots or (from_entities and source in sub.roots)
