"""Multi-hop discovery for search: chunks ranked by Personalized PageRank over a bounded
entity-chunk subgraph (the HippoRAG method), each with the relationship path from the entity
it was reached by.

The walk restarts at the entities the query names and, in the spirit of HippoRAG 2's
dense-sparse integration, at the passage the dense leg found most similar, so a query that
names nothing still walks. In the passages the walk starts from, mentions near the query's
relation words weigh more: the walk leaves a passage towards the entity the question asks
about. (Weighing every edge by its passage's similarity to the query, exp(5 x cosine), cost
recall on both shared sets, bench/RESULTS.md.)
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from uuid import uuid4

from app.search.mention_graphs import MentionGraphs
from graph.driver import GraphStore
from graph.edges import Edge, EntityRow, Evidence, RelationshipPath, path_of
from graph.relationships import edges_between
from graph.temporal import NOW, TimeFilter
from retrieval.ppr import Restart, Subgraph, rank_chunks
from retrieval.relation_cues import CuedPassage
from store import documents, knowledge, mentions
from store.bm25 import Stats
from store.pool import Pool, autocommitted
from store.scope import Scope
from store.subgraph import Bounds, entity_chunk_subgraph, sql_steps
from store.tenants import Tenant

BOUNDS = Bounds(fanout=50, max_edges=20_000, beam=200)
CUE_GAIN = 4.0
# A hub seed is mentioned by hundreds of passages; its cues are read in the ones most
# strongly tied to it. On both shared sets, 20 kept recall identical and halved the p95.
CUED_PER_SEED = 20


@dataclass(frozen=True)
class DiscoveredChunk:
    chunk_id: str
    score: float
    trail: list[str]  # entity, chunk, entity, ..., this chunk; empty for a start passage


@dataclass(frozen=True)
class Within:
    """The collection a walk stays in (its seeds and start chunks are that collection's) and
    its statistics as the search read them."""

    scope: Scope
    stats: Stats | None


@dataclass(frozen=True)
class GraphQuery:
    """What the graph leg walks from: the linked seed entities, chunks that count as seeds
    too (a document whose title the query quotes), anchor passages with their similarity
    to the query, and the entities of facts the query resembles, with their weight."""

    seeds: list[str]
    hops: int
    first: int
    seed_chunks: tuple[str, ...] = ()
    cues: frozenset[str] = frozenset()  # the query's relation words (retrieval/relation_cues)
    anchors: tuple[tuple[str, float], ...] = ()
    facts: tuple[tuple[str, float], ...] = ()  # (entity, weight): app/search/fact_matching

    @property
    def start(self) -> Restart:
        return Restart(tuple(self.seeds), self.seed_chunks, self.anchors, self.facts)


class GraphDiscovery:
    def __init__(self, graph: GraphStore, pool: Pool, mentions: MentionGraphs) -> None:
        self._graph = graph
        self._pool = pool
        self._mentions = mentions

    async def discover(
        self, tenant: Tenant, query: GraphQuery, within: Within | None = None
    ) -> tuple[list[DiscoveredChunk], bool]:
        """Chunks best first, each with the trail the walk took to it, and whether a bound
        cut the subgraph short. `within`: the one collection the walk stays in, whose
        mentions this process may hold in memory."""
        start = query.start
        async with autocommitted(self._pool) as conn:
            steps = (
                sql_steps(conn, tenant)
                if within is None
                else self._mentions.steps(conn, tenant, within.scope, within.stats)
            )
            sub = await entity_chunk_subgraph(steps, start, query.hops, BOUNDS)
        if query.cues:
            await self._weigh_by_cues(tenant, sub, start, query.cues)
        ranked = rank_chunks(sub, start, query.first)
        return [DiscoveredChunk(r.chunk_id, r.score, r.path) for r in ranked], sub.truncated

    async def paths(
        self, tenant: Tenant, trails: dict[str, list[str]], time: TimeFilter
    ) -> dict[str, RelationshipPath]:
        """The relationship path of each trail, its edges from Neo4j. Search asks for the
        hits it returns only: building one for every chunk the walk ranked was the leg's
        slowest part. A step between entities no edge joins yet (a document not yet
        projected to Neo4j) shows the chunk that mentions both, as the walk found it."""
        tenant_id = str(tenant.id)
        entity_paths = {chunk: trail[0:-1:2] for chunk, trail in trails.items() if trail}
        via = {pair: c for trail in trails.values() for pair, c in _links(trail).items()}
        # The walk read only what the key may see; so may the evidence of its paths.
        seen = time.seen_by(tenant.content_scopes)
        ids = list({e for path in entity_paths.values() for e in path})
        # The edges from Neo4j while Postgres, the record they are projected from, gives
        # the entities and the chunks' documents: cheaper there, and concurrent.
        edges, (rows, documents) = await asyncio.gather(
            edges_between(self._graph, tenant_id, list(via), seen),
            self._entities_and_documents(tenant, ids, list(set(via.values()))),
        )

        def same_chunk(a: str, b: str) -> Edge:
            """Two entities of one chunk, not of one sentence: the chunk is the evidence."""
            chunk = via[(a, b)]
            evidence = Evidence(documents.get(chunk, ""), chunk, None, None)
            return Edge("CO_OCCURRENCE", a, b, 1.0, [evidence])

        built = {c: path_of(path, edges, rows, same_chunk) for c, path in entity_paths.items()}
        return {c: path for c, path in built.items() if path is not None}

    async def _entities_and_documents(
        self, tenant: Tenant, entity_ids: list[str], chunk_ids: list[str]
    ) -> tuple[dict[str, EntityRow], dict[str, str]]:
        async with autocommitted(self._pool) as conn:
            rows = await knowledge.seen_entities(conn, tenant, entity_ids)
            return rows, await documents.of_chunks(conn, tenant.id, chunk_ids)

    async def warm_up(self) -> None:
        """Have Neo4j compile the queries that build relationship paths, for a key with and
        without content scopes (their Cypher differs), against a tenant that does not exist:
        a plan is cached by the query's text, so the first real search finds it compiled."""
        nobody = Tenant(uuid4(), "warm-up")
        e1, c1, e2, c2 = (str(uuid4()) for _ in range(4))
        trails = {c2: [e1, c1, e2, c2]}
        for scopes in ((), ("warm-up",)):
            await self.paths(replace(nobody, content_scopes=scopes), trails, NOW)

    async def _weigh_by_cues(
        self, tenant: Tenant, sub: Subgraph, start: Restart, cues: frozenset[str]
    ) -> None:
        """In the chunks that mention a seed, and the chunks the walk starts from, mentions
        near the query's relation words weigh more."""
        seeds = set(start.entities)
        first_hop = _strongest_per_seed(sub, seeds, CUED_PER_SEED)
        first_hop += [c for c in start.start_chunks if c in sub.chunks]
        async with autocommitted(self._pool) as conn:
            contexts = await mentions.in_chunks(conn, tenant.id, first_hop)
        for chunk, context in contexts.items():
            passage = CuedPassage(context.text, cues)
            for entity, spans in context.spans.items():  # an edge without spans keeps its weight
                weight = sub.edges.get((entity, chunk))
                if weight is not None and entity not in seeds:
                    sub.edges[(entity, chunk)] = weight * (1 + CUE_GAIN * passage.strength(spans))


def _strongest_per_seed(sub: Subgraph, seeds: set[str], limit: int) -> list[str]:
    """The chunks each seed reached first, at most `limit` per seed, most strongly tied
    first (ties by id, so the choice does not follow a set's order)."""
    by_seed: dict[str, list[str]] = {}
    for chunk in sub.chunks:
        if sub.parent.get(chunk) in seeds:
            by_seed.setdefault(sub.parent[chunk], []).append(chunk)
    strongest: list[str] = []
    for seed, chunks in by_seed.items():
        chunks.sort(key=lambda c: (-sub.edges.get((seed, c), 0.0), c))
        strongest += chunks[:limit]
    return strongest


def _links(path: list[str]) -> dict[tuple[str, str], str]:
    """(entity, next entity) -> the chunk that mentions both, along seed, chunk, entity, ..."""
    return {(path[i], path[i + 2]): path[i + 1] for i in range(0, len(path) - 2, 2)}
