"""A bounded entity-chunk subgraph around seed entities, fetched hop by hop from Neo4j.

Each step examines a bounded number of mentions per node (`graph.expansion.scan_per_node`),
keeps at most `fanout` of them per node (strongest first) and the whole
subgraph at most `max_edges`, so a hub entity cannot pull in the whole collection.
"""

from __future__ import annotations

from graph.driver import GraphStore
from graph.expansion import scan_per_node
from retrieval.ppr import Subgraph

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


async def entity_chunk_subgraph(
    graph: GraphStore, tenant_id: str, seeds: list[str], hops: int, fanout: int, max_edges: int
) -> Subgraph:
    """Seeds -> chunks mentioning them -> entities in those chunks -> their chunks ...:
    chunks up to `hops` entity hops away (hops=1: the chunks mentioning a seed)."""
    sub = Subgraph(roots=set(seeds))
    entities, seen = list(dict.fromkeys(seeds)), set(seeds)
    for hop in range(hops):
        chunks = await _expand(graph, _ENTITY_TO_CHUNKS, tenant_id, entities, fanout, sub, True)
        sub.chunks.update(chunks)
        if len(sub.edges) >= max_edges or not chunks:
            sub.truncated = sub.truncated or len(sub.edges) >= max_edges
            break
        if hop == hops - 1:
            break  # the last chunks' other entities are beyond `hops`
        found = await _expand(graph, _CHUNK_TO_ENTITIES, tenant_id, chunks, fanout, sub, False)
        entities = [e for e in found if e not in seen]
        seen.update(entities)
    return sub


async def _expand(
    graph: GraphStore,
    query: str,
    tenant_id: str,
    ids: list[str],
    fanout: int,
    sub: Subgraph,
    from_entities: bool,
) -> list[str]:
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
        if target not in sub.parent and target not in sub.roots:
            sub.parent[target] = source
            reached.append(target)
    return reached
