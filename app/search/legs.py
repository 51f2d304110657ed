"""The four legs of a search. Each returns main chunks best first, within one scope.

A leg that fails raises; the caller decides whether that degrades the search or fails it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass
from uuid import UUID

import numpy as np
from numpy.typing import NDArray

from app._recent import Recent
from app.search.basis import ExactScans, SearchBasis
from app.search.coverage import asked_terms
from app.search.fact_matching import FACTS, fact_entities
from app.search.graph_leg import GraphDiscovery, GraphQuery, Within
from app.search.keyword_index import KeywordIndexes
from app.search.linking import EntityLinker, title_candidates
from app.search.mention_graphs import MentionGraphs
from app.search.results import LegResult
from app.search.vector_copies import VectorCopies
from ingest.embedder import Embedder
from retrieval.query_terms import query_terms
from retrieval.relation_cues import cue_terms
from retrieval.request import Leg, SearchRequest
from retrieval.section_refs import section_labels
from store import search
from store.bm25 import Frequencies, Stats
from store.fact_vectors import FactQuery
from store.pool import Conn, Pool, autocommitted
from store.scope import Scope
from store.search import ChunkVector
from store.tenants import Tenant

MIN_SIMILARITY = 0.2
EF_SEARCH = 600  # recall@10 0.79 at 100, 0.96 at 500, 1.0 at 600 on 100k chunks (bench.search)
CACHE_SIZE = 2048
ANCHOR_PASSAGES = 1  # the dense leg's best passages the walk also starts from (2 or 3 did worse
# on both shared sets: the second passage is more often a distractor than a hop)


class QueryVectors:
    """Query embeddings, cached per (model, query): repeated queries skip the model."""

    def __init__(self) -> None:
        self._cache: Recent[tuple[str, str], NDArray[np.float32]] = Recent(CACHE_SIZE)

    async def embed(self, embedder: Embedder, query: str) -> NDArray[np.float32]:
        key = (embedder.model_id, query)
        found = self._cache.get(key)
        if found is not None:
            return found
        vectors = await asyncio.to_thread(embedder.embed, [query], True)
        vector: NDArray[np.float32] = vectors[0]
        return self._cache.put(key, vector)

    def clear(self) -> None:
        self._cache.clear()


@dataclass(frozen=True)
class HeldCopies:
    """What this process may hold in memory of a collection's indexes, each used while it is
    current (app/search/_built.py). The graph walk reads the mentions through the discovery;
    the graph leg counts its seeds' documents in them."""

    keyword: KeywordIndexes
    vectors: VectorCopies
    mentions: MentionGraphs


@dataclass(frozen=True)
class LegContext:
    """One search of one collection, as every leg sees it."""

    tenant: Tenant
    scope: Scope
    request: SearchRequest
    vector: asyncio.Task[NDArray[np.float32]]  # the query embedding, computed once
    limit: int  # candidates wanted from each leg
    basis: SearchBasis  # the collection's rules and statistics, read once
    dense: asyncio.Task[LegResult] | None = None  # the dense leg, run once for it and the graph


class SearchLegs:
    def __init__(
        self, pool: Pool, held: HeldCopies, linker: EntityLinker, discovery: GraphDiscovery
    ) -> None:
        self._pool = pool
        self._keyword_index = held.keyword
        self._vectors = held.vectors
        self._mentions = held.mentions
        self._linker = linker
        self._discovery = discovery
        self._exact = ExactScans()

    def sharing_dense(self, context: LegContext) -> LegContext:
        """The context with the dense leg started, when a leg of the request reads it."""
        if not {Leg.SEMANTIC, Leg.GRAPH} & set(context.request.active_legs()):
            return context
        return dataclasses.replace(context, dense=asyncio.create_task(self._dense_leg(context)))

    async def run(self, leg: Leg, context: LegContext) -> LegResult:
        if leg is Leg.SEMANTIC:
            if context.dense is None:
                return await self._dense_leg(context)
            return await asyncio.shield(context.dense)
        if leg is Leg.KEYWORD:
            return await self.keyword(context)
        if leg is Leg.SECTION:
            return await self.section(context)
        return await self.graph(context)

    async def dense(self, context: LegContext, vector: NDArray[np.float32]) -> LegResult:
        scope, limit, stats = context.scope, context.limit, context.basis.stats
        found = await self._vectors.search(scope, vector, limit, stats)
        if found is None:
            found = await self._dense_sql(scope, vector, limit, stats)
        return LegResult.of([(c, s) for c, s in found if s >= MIN_SIMILARITY])

    async def _dense_sql(
        self, scope: Scope, vector: NDArray[np.float32], limit: int, stats: Stats | None
    ) -> list[tuple[UUID, float]]:
        async with autocommitted(self._pool) as conn:
            if await self._exact.is_small(conn, scope, stats):
                return await search.dense_exact(conn, scope, vector, limit)
            return await search.dense_hnsw(conn, scope, vector, limit, max(EF_SEARCH, limit))

    async def _dense_leg(self, context: LegContext) -> LegResult:
        return await self.dense(context, await context.vector)

    async def keyword(self, context: LegContext) -> LegResult:
        scope = context.scope
        async with autocommitted(self._pool) as conn:
            terms = query_terms(context.request.query, context.basis.rules)
            stats = context.basis.stats
            found = await self._keyword_index.search(conn, scope, terms, context.limit, stats)
        result = LegResult.of(found)
        result.terms = terms
        return result

    async def candidate_vectors(
        self, conn: Conn, context: LegContext, chunks: list[UUID], vector: NDArray[np.float32]
    ) -> dict[UUID, ChunkVector]:
        """Each candidate's window vector most similar to the query, held or read."""
        scope, stats = context.scope, context.basis.stats
        held = self._vectors.candidate_vectors(scope, vector, chunks, stats)
        if held is not None:
            return held
        return await search.candidate_vectors(conn, scope.tenant_id, chunks, vector)

    async def frequencies(self, conn: Conn, context: LegContext) -> Frequencies:
        """The document frequencies of the query's terms, for its coverage."""
        asked = asked_terms(context.request.query)
        stats = context.basis.stats
        return await self._keyword_index.frequencies(conn, context.scope, asked, stats)

    async def section(self, context: LegContext) -> LegResult:
        labels = section_labels(context.request.query)
        if not labels:
            return LegResult()
        async with autocommitted(self._pool) as conn:
            chunks = await search.section_chunks(conn, context.scope, labels, context.limit)
        return LegResult(chunks, {c: 1.0 / (i + 1) for i, c in enumerate(chunks)})

    async def graph(self, context: LegContext) -> LegResult:
        scope, query = context.scope, context.request.query
        async with autocommitted(self._pool) as conn:
            seeds = await self._linker.link(conn, scope.tenant_id, scope.collection_id, query)
            titled = await search.titled_chunks(conn, scope, sorted(title_candidates(query)))
            stats = context.basis.stats
            reach = await self._mentions.fewest_documents(conn, context.tenant, scope, stats, seeds)
        start = await self._start(context, seeds, titled)
        if not start.start.nodes:
            return LegResult()
        within = Within(scope, context.basis.stats)
        found, truncated = await self._discovery.discover(context.tenant, start, within)
        chunks = await self._in_scope(scope, [UUID(d.chunk_id) for d in found])
        by_id = {UUID(d.chunk_id): d for d in found}
        ranked = chunks[: context.limit]
        result = LegResult(ranked, {c: by_id[c].score for c in ranked})
        result.trails = {c: by_id[c].trail for c in ranked}
        result.seeds = seeds
        result.truncated = truncated
        result.seed_documents = reach or 1
        result.titled = bool(titled)
        return result

    async def _start(
        self, context: LegContext, seeds: dict[str, str], titled: list[str]
    ) -> GraphQuery:
        request = context.request
        anchors, facts = await asyncio.gather(_anchors(context), self._facts(context, seeds))
        return GraphQuery(
            seeds=list(seeds),
            hops=request.hops,
            first=context.limit * (3 if context.scope.narrowed else 1),  # filters drop some
            seed_chunks=tuple(titled),
            cues=cue_terms(request.query, seeds.values()),
            anchors=anchors,
            facts=facts,
        )

    async def _facts(
        self, context: LegContext, seeds: dict[str, str]
    ) -> tuple[tuple[str, float], ...]:
        """The entities of facts the query resembles (about the entities it names, when it
        names some), when the request asks for them; none when the query could not be
        embedded."""
        if not context.request.match_facts:
            return ()
        try:
            vector = await asyncio.shield(context.vector)
        except Exception:
            return ()
        about = tuple(seeds) if seeds else None
        query = FactQuery(context.scope.collection_id, vector, FACTS, about)
        return await fact_entities(self._pool, context.tenant, query)

    async def _in_scope(self, scope: Scope, chunks: list[UUID]) -> list[UUID]:
        """Graph hits narrowed to the search's filters (the graph knows no metadata)."""
        if not scope.narrowed:
            return chunks
        async with autocommitted(self._pool) as conn:
            allowed = await search.chunks_in_scope(conn, scope, chunks)
        return [c for c in chunks if c in allowed]


async def _anchors(context: LegContext) -> tuple[tuple[str, float], ...]:
    """The dense leg's best passages with their similarity; without them (the embedder
    failed) the graph walks from the named entities alone."""
    if context.dense is None:
        return ()
    try:
        dense = await asyncio.shield(context.dense)
    except Exception:
        return ()
    return tuple((str(c), dense.scores[c]) for c in dense.ranked[:ANCHOR_PASSAGES])
