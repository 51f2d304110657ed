"""Multi-hop discovery for search: chunks ranked by Personalized PageRank from seed entities
over a bounded entity-chunk subgraph (the HippoRAG method), each with the relationship path
from a seed to an entity the chunk mentions.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph import entities as lookups
from graph.driver import GraphStore
from graph.edges import Edge, Evidence, RelationshipPath, path_of
from graph.relationships import edges_between
from graph.subgraph import entity_chunk_subgraph
from graph.temporal import TimeFilter
from retrieval.ppr import RankedChunk, Subgraph, rank_chunks
from retrieval.relation_cues import cue_strength
from store import mentions
from store.pool import Pool
from store.tenants import Tenant

FANOUT = 50
MAX_EDGES = 20_000
CUE_GAIN = 4.0


@dataclass(frozen=True)
class DiscoveredChunk:
    chunk_id: str
    score: float
    path: RelationshipPath  # no steps when the chunk mentions a seed itself
    seed: str


@dataclass(frozen=True)
class GraphQuery:
    """What the graph leg walks from: the linked seed entities, and chunks that count as
    seeds too (a document whose title the query quotes)."""

    seeds: list[str]
    hops: int
    time: TimeFilter
    first: int
    seed_chunks: tuple[str, ...] = ()
    cues: frozenset[str] = frozenset()  # the query's relation words (retrieval/relation_cues)


class GraphDiscovery:
    def __init__(self, graph: GraphStore, pool: Pool) -> None:
        self._graph = graph
        self._pool = pool

    async def discover(
        self, tenant: Tenant, query: GraphQuery
    ) -> tuple[list[DiscoveredChunk], bool]:
        """Chunks best first, and whether a bound cut the subgraph short."""
        tenant_id = str(tenant.id)
        seeds = query.seeds
        sub = await entity_chunk_subgraph(
            self._graph, tenant_id, seeds, query.hops, FANOUT, MAX_EDGES
        )
        if query.cues:
            await self._weigh_by_cues(tenant, sub, set(seeds), query.cues)
        ranked = rank_chunks(sub, [*seeds, *query.seed_chunks], query.first)
        return await self._with_paths(tenant_id, ranked, query.time), sub.truncated

    async def _with_paths(
        self, tenant_id: str, ranked: list[RankedChunk], time: TimeFilter
    ) -> list[DiscoveredChunk]:
        """Each ranked chunk with the relationship path the walk took to it; a chunk whose
        path lost an entity meanwhile (a concurrent delete) is left out."""
        entity_paths = [r.path[0:-1:2] for r in ranked]
        via = {pair: chunk for r in ranked for pair, chunk in _links(r.path).items()}
        edges = await edges_between(self._graph, tenant_id, list(via), time)
        ids = list({e for path in entity_paths for e in path})
        rows = await lookups.entities_by_id(self._graph, tenant_id, ids)
        documents = await _chunk_documents(self._graph, tenant_id, list(set(via.values())))

        def same_chunk(a: str, b: str) -> Edge:
            """Two entities of one chunk, not of one sentence: the chunk is the evidence."""
            chunk = via[(a, b)]
            evidence = Evidence(documents.get(chunk, ""), chunk, None, None)
            return Edge("CO_OCCURRENCE", a, b, 1.0, [evidence])

        return [
            DiscoveredChunk(r.chunk_id, r.score, built, path[0])
            for r, path in zip(ranked, entity_paths, strict=True)
            if (built := path_of(path, edges, rows, same_chunk)) is not None
        ]

    async def _weigh_by_cues(
        self, tenant: Tenant, sub: Subgraph, seeds: set[str], cues: frozenset[str]
    ) -> None:
        """In the chunks that mention a seed, mentions near the query's relation words
        weigh more, so the walk leaves a seed's passage towards the entity it asks about."""
        first_hop = [c for c in sub.chunks if sub.parent.get(c) in seeds]
        async with self._pool.connection() as conn:
            contexts = await mentions.in_chunks(conn, tenant.id, first_hop)
        for (entity, chunk), weight in list(sub.edges.items()):
            context = contexts.get(chunk)
            if context is None or entity in seeds:
                continue
            strength = cue_strength(context.text, context.spans.get(entity, []), cues)
            sub.edges[(entity, chunk)] = weight * (1 + CUE_GAIN * strength)


def _links(path: list[str]) -> dict[tuple[str, str], str]:
    """(entity, next entity) -> the chunk that mentions both, along seed, chunk, entity, ..."""
    return {(path[i], path[i + 2]): path[i + 1] for i in range(0, len(path) - 2, 2)}


async def _chunk_documents(graph: GraphStore, tenant_id: str, chunks: list[str]) -> dict[str, str]:
    found = await graph.read(
        "MATCH (c:Chunk) WHERE c.id IN $ids AND c.tenant_id = $tenant"
        " RETURN c.id AS chunk, c.document_id AS document",
        ids=chunks,
        tenant=tenant_id,
    )
    return {row["chunk"]: row["document"] for row in found}
