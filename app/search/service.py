"""Search: the legs run concurrently per collection, each under its own timeout; their
rankings fuse by Reciprocal Rank Fusion, the head is re-scored by a reranker when one is
configured and diversified with MMR. A failed leg degrades a HYBRID
search and fails a single-mode one.

Scores order hits within one response; they are not confidence values.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from uuid import UUID

import numpy as np
from numpy.typing import NDArray

from app.backend_errors import OutageLog, as_backend_unavailable
from app.collections.service import Collections
from app.errors import ErrorCode, TrellisError
from app.models.embedders import Embedders
from app.models.reranker import Reranker, RerankerError
from app.search import ranking
from app.search.basis import read_basis
from app.search.checks import check_request, scope_of
from app.search.coverage import query_coverage
from app.search.graph_leg import GraphDiscovery
from app.search.legs import HeldCopies, LegContext, QueryVectors, SearchLegs
from app.search.linking import EntityLinker
from app.search.ranking import Candidate
from app.search.results import HitDocument, LegResult, SearchHit, SearchOutcome, Span
from app.search.second_round import bridges, second_round
from graph.edges import RelationshipPath
from graph.temporal import TimeFilter
from retrieval.highlights import highlights
from retrieval.relation_cues import cue_terms
from retrieval.request import Leg, Mode, ResultType, SearchRequest
from retrieval.title_links import Titled
from store import mentions, search_logs
from store import search as rows
from store.collections import Collection
from store.pool import Pool, autocommitted
from store.search import HitPassage
from store.search_logs import SearchLog
from store.tenants import Tenant

log = logging.getLogger(__name__)
_OUTAGES = OutageLog(log)  # a leg failing for a database that is down

Passages = dict[UUID, HitPassage]

LEG_TIMEOUT_SECONDS = {Leg.SEMANTIC: 5.0, Leg.KEYWORD: 5.0, Leg.SECTION: 3.0, Leg.GRAPH: 5.0}
MAX_SPANS_PER_FILE = 3


@dataclass
class _Collected:
    candidates: list[Candidate] = field(default_factory=list)
    missing: set[Leg] = field(default_factory=set)
    terms: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    graph_pending: int = 0
    graph_truncated: bool = False
    passages: Passages = field(default_factory=dict)  # those of candidates that may be returned


class Search:
    def __init__(
        self,
        pool: Pool,
        collections: Collections,
        embedders: Embedders,
        linker: EntityLinker,
        discovery: GraphDiscovery,
        held: HeldCopies,
        reranker: Reranker | None = None,
    ) -> None:
        self._pool = pool
        self._collections = collections
        self._embedders = embedders
        self._legs = SearchLegs(pool, held, linker, discovery)
        self._linker = linker
        self._discovery = discovery
        self._vectors = QueryVectors()
        self._reranker = reranker

    @property
    def embedders(self) -> Embedders:
        return self._embedders

    def forget_queries(self) -> None:
        """Empty the query-embedding cache and the kept query parses, so that the next
        searches embed and parse their queries as first-time queries do (benchmarks measure
        those)."""
        self._vectors.clear()
        self._linker.extractor().forget_queries()

    async def warm_up(self) -> None:
        """Load the entity pipeline and the local embedding model, and have Neo4j compile
        the relationship paths' queries (app/search/warmup.py)."""
        await asyncio.gather(
            asyncio.to_thread(self._linker.extractor),
            asyncio.to_thread(self._embedders.warm_up),
            self._discovery.warm_up(),
        )

    async def close(self) -> None:
        if self._reranker is not None:
            await self._reranker.close()

    async def search(self, tenant: Tenant, request: SearchRequest) -> SearchOutcome:
        started = time.perf_counter()
        check_request(request)
        targets = [
            await self._collections.get(tenant, name) for name in dict.fromkeys(request.collections)
        ]
        collected = [await self._collection(tenant, t, request) for t in targets]
        outcome = await self._outcome(tenant, request, collected)
        outcome.timings_ms["total"] = (time.perf_counter() - started) * 1000
        await self._log(tenant, targets, request, outcome)
        return outcome

    async def document_hits(self, tenant: Tenant, document_id: UUID) -> list[SearchHit]:
        """Every main chunk of one document as a hit, in reading order: what a question
        about that document reads instead of searching. None was found by a leg."""
        async with autocommitted(self._pool) as conn:
            chunks = await rows.document_chunks(conn, tenant.id, document_id)
            passages = await rows.hit_passages(conn, tenant.id, chunks)
        return [_hit(Candidate(c, 1.0, []), passages[c], set()) for c in chunks if c in passages]

    async def bridge_names(
        self, tenant: Tenant, request: SearchRequest, read: list[UUID]
    ) -> tuple[list[str], frozenset[str]]:
        """The names the passages `read` mention near the query's relation words (best
        passage first, the query's own entities left out), and those words: the second
        round's reading (app/search/second_round.py), for an answer that retrieves again."""
        linked = await self._linked(tenant, request)
        async with autocommitted(self._pool) as conn:
            passages = await mentions.in_chunks(conn, tenant.id, [str(c) for c in read])
        ordered = [passages[str(c)] for c in read if str(c) in passages]
        cues = cue_terms(request.query, linked.values())
        return bridges(ordered, cues, set(linked)), cues

    async def plan(
        self, tenant: Tenant, request: SearchRequest
    ) -> tuple[list[str], frozenset[str]]:
        """The graph's entities the query names, and its relation words: what a research
        run starts from."""
        linked = await self._linked(tenant, request)
        return sorted(set(linked.values())), cue_terms(request.query, linked.values())

    async def _linked(self, tenant: Tenant, request: SearchRequest) -> dict[str, str]:
        """The query's names linked to entities of the collections searched."""
        targets = [await self._collections.get(tenant, n) for n in request.collections]
        linked: dict[str, str] = {}
        async with autocommitted(self._pool) as conn:
            for target in targets:
                linked |= await self._linker.link(conn, tenant.id, target.id, request.query)
        return linked

    async def _collection(
        self, tenant: Tenant, target: Collection, request: SearchRequest
    ) -> _Collected:
        scope = scope_of(tenant, target, request.filters)
        embedder = self._embedders.get(target.embedding_model)
        vector_task = asyncio.create_task(self._vectors.embed(embedder, request.query))
        wanted = max(ranking.CANDIDATES, request.top_k)
        async with autocommitted(self._pool) as conn:
            basis = await read_basis(conn, scope)
        context = LegContext(tenant, scope, request, vector_task, wanted, basis)
        context = self._legs.sharing_dense(context)
        results, collected = await self._run_legs(context)
        vector = await _vector_or_none(vector_task)
        second = await self._second_round(context, results, collected)
        started = time.perf_counter()
        collected.candidates = await self._ranked(context, results, vector, second, collected)
        collected.graph_pending = basis.graph_pending
        collected.timings["fusion"] = (time.perf_counter() - started) * 1000
        collected.terms = results[Leg.KEYWORD].terms if Leg.KEYWORD in results else []
        collected.graph_truncated = Leg.GRAPH in results and results[Leg.GRAPH].truncated
        return collected

    async def _second_round(
        self, context: LegContext, results: dict[Leg, LegResult], collected: _Collected
    ) -> list[LegResult]:
        """The second round's rankings when it runs (by default in HYBRID); its searches are
        keyword searches, so their failure counts as the keyword leg's."""
        if not context.request.runs_second_round() or not results:
            return []
        started = time.perf_counter()
        try:
            found = await asyncio.wait_for(
                second_round(self._pool, self._legs, context, results),
                LEG_TIMEOUT_SECONDS[Leg.KEYWORD],
            )
        except Exception as error:
            _on_failure(Leg.KEYWORD, error, context.request)
            collected.missing.add(Leg.KEYWORD)
            return []
        collected.timings["secondRound"] = (time.perf_counter() - started) * 1000
        return found

    async def _ranked(
        self,
        context: LegContext,
        results: dict[Leg, LegResult],
        vector: NDArray[np.float32] | None,
        second: list[LegResult],
        collected: _Collected,
    ) -> list[Candidate]:
        """The candidates in their final order, those returned with their relationship paths.
        Neo4j builds the paths of every candidate the re-scoring may return, and Postgres
        reads their passages, while the head is re-ordered, rather than after it."""
        fused = ranking.fuse(results, context.request.top_k, second)
        may_return = _may_return(context.request, fused)
        found, candidates, collected.passages, titled = await asyncio.gather(
            self._paths(context.tenant, context.request, may_return, collected.timings),
            self._reordered(context, fused, vector),
            self._passages(context.tenant.id, may_return),
            self._titled(context, fused),
        )
        if found is None:  # Neo4j failed: the graph leg's hits go, as on any of its errors
            collected.missing.add(Leg.GRAPH)
            del results[Leg.GRAPH]
            return await self._ranked(context, results, vector, second, collected)
        texts = {chunk: passage.content for chunk, passage in collected.passages.items()}
        candidates = ranking.title_linked(candidates, texts, titled)
        await self._with_paths(context, _returned(context.request, candidates), found)
        return candidates

    async def _titled(self, context: LegContext, fused: list[Candidate]) -> dict[UUID, Titled]:
        """The candidates' documents and titles, for a hybrid search's title links."""
        if context.request.mode is not Mode.HYBRID or not fused:
            return {}
        async with autocommitted(self._pool) as conn:
            return await rows.chunk_titles(conn, context.tenant.id, [c.chunk_id for c in fused])

    async def _with_paths(
        self, context: LegContext, returned: list[Candidate], found: dict[str, RelationshipPath]
    ) -> None:
        """Each returned graph hit's relationship path; a title link may lift one whose path
        was not built beside the re-scoring (if Neo4j fails now, it goes without)."""
        pathless = [c for c in returned if c.trail and str(c.chunk_id) not in found]
        if pathless:
            more = await self._paths(context.tenant, context.request, pathless, {})
            found = {**found, **(more or {})}
        for candidate in returned:
            candidate.path = found.get(str(candidate.chunk_id))

    async def _paths(
        self,
        tenant: Tenant,
        request: SearchRequest,
        may_return: list[Candidate],
        timings: dict[str, float],
    ) -> dict[str, RelationshipPath] | None:
        """The relationship paths of the graph hits among those that may be returned, by
        chunk; None when Neo4j cannot give them."""
        started = time.perf_counter()
        trails = {str(c.chunk_id): c.trail for c in may_return if c.trail}
        if not trails:
            return {}
        try:
            found = await self._discovery.paths(tenant, trails, TimeFilter.at(request.as_of, None))
        except Exception as error:
            _on_failure(Leg.GRAPH, error, request)
            return None
        timings["paths"] = (time.perf_counter() - started) * 1000
        return found

    async def _passages(self, tenant_id: UUID, candidates: list[Candidate]) -> Passages:
        async with autocommitted(self._pool) as conn:
            return await rows.hit_passages(conn, tenant_id, [c.chunk_id for c in candidates])

    async def _run_legs(self, context: LegContext) -> tuple[dict[Leg, LegResult], _Collected]:
        active = context.request.active_legs()
        runs = [self._timed(leg, context) for leg in active]
        outcomes = await asyncio.gather(*runs, return_exceptions=True)
        collected = _Collected()
        results: dict[Leg, LegResult] = {}
        for leg, outcome in zip(active, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                _on_failure(leg, outcome, context.request)
                collected.missing.add(leg)
            else:
                results[leg], collected.timings[leg.value] = outcome
        return results, collected

    async def _timed(self, leg: Leg, context: LegContext) -> tuple[LegResult, float]:
        started = time.perf_counter()
        result = await asyncio.wait_for(self._legs.run(leg, context), LEG_TIMEOUT_SECONDS[leg])
        return result, (time.perf_counter() - started) * 1000

    async def _reordered(
        self, context: LegContext, candidates: list[Candidate], vector: NDArray[np.float32] | None
    ) -> list[Candidate]:
        """A hybrid search's head re-ordered: by the reranker when there is one, else in its
        fused order, diversified with the query coverage each passage adds."""
        tenant, request = context.tenant, context.request
        if request.mode is not Mode.HYBRID or not candidates:
            return candidates
        if self._reranker is not None:
            return await self._rerank(tenant, request, candidates)
        if vector is None:
            return candidates
        head = [c.chunk_id for c in ranking.head(candidates)]
        async with autocommitted(self._pool) as conn:
            ids = [c.chunk_id for c in candidates]
            vectors = await self._legs.candidate_vectors(conn, context, ids, vector)
            frequencies = await self._legs.frequencies(conn, context)
            coverage = await query_coverage(conn, context.scope, head, frequencies)
        return ranking.diversify(candidates, vectors, coverage)

    async def _rerank(
        self, tenant: Tenant, request: SearchRequest, candidates: list[Candidate]
    ) -> list[Candidate]:
        """The reranker orders the head; if it fails, fusion's order stands."""
        assert self._reranker is not None
        head = ranking.head(candidates)
        async with autocommitted(self._pool) as conn:
            texts = await rows.hit_passages(conn, tenant.id, [c.chunk_id for c in head])
        documents = [texts[c.chunk_id].content if c.chunk_id in texts else "" for c in head]
        try:
            scores = await self._reranker.scores(request.query, documents)
        except RerankerError as error:
            log.warning("reranker failed, keeping the fused order: %s", error)
            return candidates
        return ranking.reranked(candidates, scores)

    async def _outcome(
        self, tenant: Tenant, request: SearchRequest, collected: list[_Collected]
    ) -> SearchOutcome:
        merged = _merge([c.candidates for c in collected])
        if request.min_score is not None:
            merged = [c for c in merged if c.score >= request.min_score]
        terms = {t for c in collected for t in c.terms}
        passages = {k: v for c in collected for k, v in c.passages.items()}
        hits = await self._hits(tenant, request, merged, terms, passages)
        missing = sorted({leg for c in collected for leg in c.missing})
        timings = {k: v for c in collected for k, v in c.timings.items()}
        pending = sum(c.graph_pending for c in collected)
        truncated = any(c.graph_truncated for c in collected)
        return SearchOutcome(
            uuid.uuid4(), hits, bool(missing), missing, timings, pending, truncated
        )

    async def _hits(
        self,
        tenant: Tenant,
        request: SearchRequest,
        merged: list[Candidate],
        terms: set[str],
        read: Passages,
    ) -> list[SearchHit]:
        """The returned candidates as hits, from the passages read beside the re-scoring;
        a topK beyond the head returns tail candidates too, whose passages are read now."""
        wanted = _returned(request, merged)
        unread = [c for c in wanted if c.chunk_id not in read]
        details = {**read, **(await self._passages(tenant.id, unread) if unread else {})}
        hits = [_hit(c, details[c.chunk_id], terms) for c in wanted if c.chunk_id in details]
        if request.result_type is ResultType.FILE:
            hits = _by_file(hits)
        return hits[: request.top_k]

    async def _log(
        self,
        tenant: Tenant,
        targets: list[Collection],
        request: SearchRequest,
        outcome: SearchOutcome,
    ) -> None:
        entry = SearchLog(
            outcome.query_id,
            request.query,
            request.mode.value,
            len(outcome.hits),
            outcome.hits[0].score if outcome.hits else None,
            outcome.timings_ms["total"],
            outcome.degraded,
            [leg.value for leg in outcome.missing_legs],
            datetime.now(UTC),
        )
        try:
            async with autocommitted(self._pool) as conn:
                await search_logs.record(conn, tenant.id, [t.id for t in targets], entry)
        except Exception as error:
            if as_backend_unavailable(error) is None:
                log.warning("search log write failed", exc_info=True)
            else:  # one line every so often through an outage, not a traceback a search
                _OUTAGES.seen("search log write failed", repr(error))


def _on_failure(leg: Leg, error: BaseException, request: SearchRequest) -> None:
    """Raise for a single-mode search or failClosed; otherwise the leg goes missing."""
    if isinstance(error, TrellisError) and error.code is ErrorCode.BAD_USER_INPUT:
        raise error
    if as_backend_unavailable(error) is None:
        log.warning("search leg %s failed: %r", leg.value, error)
    else:
        _OUTAGES.seen(f"search leg {leg.value} failed", repr(error))
    if request.mode is not Mode.HYBRID:
        raise _leg_error(leg, error)
    if request.fail_closed:
        raise TrellisError(
            ErrorCode.DEGRADED_RESULT,
            f"the {leg.value} leg failed and failClosed is set",
            missingLegs=[leg.value],
        )


def _leg_error(leg: Leg, error: BaseException) -> TrellisError:
    down = as_backend_unavailable(error)
    if down is not None:
        return TrellisError(
            ErrorCode.SERVICE_UNAVAILABLE, down.message, backend=down.backend, leg=leg.value
        )
    if isinstance(error, TimeoutError):
        return TrellisError(
            ErrorCode.SERVICE_UNAVAILABLE, f"the {leg.value} leg timed out", leg=leg.value
        )
    if isinstance(error, TrellisError):
        return error
    return TrellisError(ErrorCode.INTERNAL_ERROR, f"the {leg.value} leg failed", leg=leg.value)


async def _vector_or_none(task: asyncio.Task[NDArray[np.float32]]) -> NDArray[np.float32] | None:
    try:
        return await task
    except Exception:
        return None


def _returned(request: SearchRequest, candidates: list[Candidate]) -> list[Candidate]:
    """The candidates hits are made from: the first topK, or every one when hits are files
    (grouped by document afterwards)."""
    return candidates if request.result_type is ResultType.FILE else candidates[: request.top_k]


def _may_return(request: SearchRequest, fused: list[Candidate]) -> list[Candidate]:
    """The fused candidates that can be among those returned once re-ordered: a hybrid
    search re-orders its head alone and lifts it above the tail."""
    if request.result_type is ResultType.FILE or request.mode is not Mode.HYBRID:
        return _returned(request, fused)
    return ranking.head(fused)


def _merge(lists: list[list[Candidate]]) -> list[Candidate]:
    """Collections' candidates by score, each chunk once."""
    best: dict[UUID, Candidate] = {}
    for candidate in (c for lst in lists for c in lst):
        if candidate.chunk_id not in best or candidate.score > best[candidate.chunk_id].score:
            best[candidate.chunk_id] = candidate
    return sorted(best.values(), key=lambda c: (-c.score, c.chunk_id.int))


def _hit(candidate: Candidate, passage: HitPassage, terms: set[str]) -> SearchHit:
    marks = highlights(passage.content, passage.char_start, terms) if terms else []
    return SearchHit(
        chunk_id=candidate.chunk_id,
        score=candidate.score,
        methods=candidate.methods,
        document=_document(passage),
        section=passage.section_path,
        spans=_spans(passage),
        text=passage.content,
        context=passage.context,
        highlights=marks,
        path=candidate.path,
    )


def _document(passage: HitPassage) -> HitDocument:
    return HitDocument(
        id=passage.document_id,
        collection_id=passage.collection_id,
        title=passage.title,
        external_id=passage.external_id,
        content_type=passage.content_type,
        metadata=passage.metadata,
        source_type=passage.source_type,
    )


def _spans(passage: HitPassage) -> list[Span]:
    """The chunk's character span and the pages it falls on; a record is one FILE span."""
    if passage.source_type == "RECORD":
        return [Span("FILE", 0, 0)]
    start, end = passage.char_start, passage.char_end
    pages = [n for n, s, e in passage.pages if s < end and e > start]
    return [Span("CHARS", start, end)] + ([Span("PAGES", min(pages), max(pages))] if pages else [])


def _by_file(hits: list[SearchHit]) -> list[SearchHit]:
    """One hit per document, its best chunk first, with the spans of up to two more of its
    chunks."""
    files: dict[UUID, SearchHit] = {}
    chunks: dict[UUID, int] = {}
    for hit in hits:
        document = hit.document.id
        if document not in files:
            files[document], chunks[document] = hit, 1
        elif chunks[document] < MAX_SPANS_PER_FILE:
            files[document].spans.extend(hit.spans)
            chunks[document] += 1
    return list(files.values())
