"""The four legs of a search. Each returns main chunks best first, within one scope.

A leg that fails raises; the caller decides whether that degrades the search or fails it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from uuid import UUID

import numpy as np
from numpy.typing import NDArray

from app.discovery import GraphDiscovery
from app.keyword_index import KeywordIndexes
from app.linking import EntityLinker, title_candidates
from app.relationships import RelationshipPath
from graph.temporal import TimeFilter
from ingest.embedder import Embedder
from retrieval.query_terms import query_terms
from retrieval.relation_cues import cue_terms
from retrieval.section_refs import section_labels
from store import search, vocabulary
from store.pool import Pool
from store.scope import Scope
from store.tenants import Tenant

MIN_SIMILARITY = 0.2
EF_SEARCH = 600  # recall@10 0.79 at 100, 0.96 at 500, 1.0 at 600 on 100k chunks (bench.search)
CACHE_SIZE = 2048


@dataclass
class LegResult:
    ranked: list[UUID] = field(default_factory=list)
    scores: dict[UUID, float] = field(default_factory=dict)
    paths: dict[UUID, RelationshipPath] = field(default_factory=dict)
    terms: list[str] = field(default_factory=list)
    seeds: int = 0

    @classmethod
    def of(cls, scored: list[tuple[UUID, float]]) -> LegResult:
        return cls([c for c, _ in scored], dict(scored))


class QueryVectors:
    """Query embeddings, cached per (model, query): repeated queries skip the model."""

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple[str, str], NDArray[np.float32]] = OrderedDict()

    async def embed(self, embedder: Embedder, query: str) -> NDArray[np.float32]:
        key = (embedder.model_id, query)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        vectors = await asyncio.to_thread(embedder.embed, [query], True)
        vector: NDArray[np.float32] = vectors[0]
        self._cache[key] = vector
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return vector


async def dense(pool: Pool, scope: Scope, vector: NDArray[np.float32], limit: int) -> LegResult:
    async with pool.connection() as conn, conn.transaction():
        if await search.is_small(conn, scope):
            found = await search.dense_exact(conn, scope, vector, limit)
        else:
            found = await search.dense_hnsw(conn, scope, vector, limit, max(EF_SEARCH, limit))
    return LegResult.of([(c, s) for c, s in found if s >= MIN_SIMILARITY])


async def keyword(
    pool: Pool, index: KeywordIndexes, scope: Scope, query: str, limit: int
) -> LegResult:
    async with pool.connection() as conn:
        rules = await vocabulary.list_rules(conn, scope.tenant_id, scope.collection_id)
        terms = query_terms(query, rules)
        result = LegResult.of(await index.search(conn, scope, terms, limit))
    result.terms = terms
    return result


async def section(pool: Pool, scope: Scope, query: str, limit: int) -> LegResult:
    labels = section_labels(query)
    if not labels:
        return LegResult()
    async with pool.connection() as conn:
        chunks = await search.section_chunks(conn, scope, labels, limit)
    return LegResult(chunks, {c: 1.0 / (i + 1) for i, c in enumerate(chunks)})


async def graph(
    pool: Pool,
    linker: EntityLinker,
    discovery: GraphDiscovery,
    tenant: Tenant,
    scope: Scope,
    query: str,
    hops: int,
    time: TimeFilter,
    limit: int,
) -> LegResult:
    async with pool.connection() as conn:
        seeds = await linker.link(conn, scope.tenant_id, scope.collection_id, query)
        if not seeds:
            return LegResult()
        titled = await search.titled_chunks(conn, scope, sorted(title_candidates(query)))
    cues = cue_terms(query, seeds.values())
    found, _ = await discovery.discover(
        tenant, list(seeds), hops, time, limit * 3, tuple(titled), cues
    )
    chunks = [UUID(d.chunk_id) for d in found]
    if scope.narrowed:
        async with pool.connection() as conn:
            allowed = await search.chunks_in_scope(conn, scope, chunks)
        chunks = [c for c in chunks if c in allowed]
    by_id = {UUID(d.chunk_id): d for d in found}
    result = LegResult(chunks[:limit], {c: by_id[c].score for c in chunks[:limit]})
    result.paths = {c: by_id[c].path for c in result.ranked}
    result.seeds = len(seeds)
    return result
