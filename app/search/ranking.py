"""From the legs' rankings to the final order of one collection's candidates.

1. Reciprocal Rank Fusion on positions. When the query names entities the collection knows,
   the graph leg weighs by its own evidence for this query: how peaked its walk is, the top
   chunk's PageRank over the PEAK_RANK-th's, to the power PEAK_POWER, between 1 and
   GRAPH_LEAD. A walk that piles its mass on a few passages found something the text legs
   cannot: multi-hop answers live in passages that never repeat the query's words, and
   equal-weight fusion drowns them. A flat walk (generic names, many seeds) found little,
   and the text legs then decide. Chosen on both shared sets together, against the fixed
   lead of 100 (bench/RESULTS.md). The walk leads only from a document the query names by
   its title, and its lead above 1 is divided by the number of documents the query's most
   specific seed is mentioned in: a name no document is about, or one many documents share
   (SQuAD's "Article (paragraph N)"), links to none of them. A walk from no entity the query
   names, restarted only at the dense leg's best passage, barely votes.
2. The head (the fused best, twice the hits asked for and at least 10, and each leg's own best
   hits asked for) is re-scored: by the reranker when one is configured; else it keeps its
   fused order. It once took 60% of its score from the query's vector similarity, unless
   the graph led: that gave the dense leg a second vote beside its place in fusion, and
   where it is the weaker leg (SQuAD's sections of one article, which all resemble a
   question about that article) it outvoted the keyword leg's best (bench/RESULTS.md). The
   head is then ordered greedily by MMR, which keeps near-duplicates, and passages of one
   document, apart, and adds to each next passage's score the share of the query it answers
   beside the passages before it (retrieval/coverage.py): the second passage of a multi-hop
   answer comes next to the first, instead of the first passage's near namesakes. The head
   stays above the tail, so what fusion found is re-ordered, never dropped.
3. A chunk of a section the query names leads the order.
4. Title links (retrieval/title_links.py): the candidates whose documents the three best
   passages name by title follow them. Only HYBRID searches read titles for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from itertools import pairwise
from uuid import UUID

import numpy as np

from app.search.results import LegResult
from graph.edges import RelationshipPath
from retrieval.coverage import QueryCoverage
from retrieval.fusion import mmr, normalised, reciprocal_rank_fusion
from retrieval.request import Leg
from retrieval.title_links import Titled, linked_first
from store.search import ChunkVector

CANDIDATES = 50
GRAPH_LEAD = 100.0  # the most the graph leg weighs in RRF
PEAK_RANK = 5
PEAK_POWER = 1.5
UNNAMED_WALK = 0.01  # the graph leg's weight when the query names no entity (graph_weight)
SECTION_BOOST = 10.0
HEAD_BONUS = 1.0  # lifts the re-scored head above the tail (relevance is at most 1)
MMR_TRADE_OFF = 0.7  # relevance against novelty
NEAR_DUPLICATE = 0.9  # cosine from which two chunks count as saying the same thing
ORDER_STEP = 1e-6  # the least score gap between consecutive hits of the diversified head


@dataclass
class Candidate:
    chunk_id: UUID
    score: float
    methods: list[Leg]
    path: RelationshipPath | None = None  # built from the trail for the hits returned
    trail: list[str] | None = None  # the graph walk's way to the chunk
    head: bool = False  # among the candidates the re-scoring re-orders (see `fuse`)


def fuse(
    results: dict[Leg, LegResult], top_k: int, second: Sequence[LegResult] = ()
) -> list[Candidate]:
    """The best CANDIDATES by weighted RRF, best first, each with the legs that found it. A
    second round's keyword rankings (app/search/second_round.py) weigh together as one text
    leg: at a text leg's weight each, its two outweighed the first round's three legs.

    The head, which the next step re-orders, is the best head_size(top_k) and each leg's own
    best top_k. A leg weighed far above the others (a peaked walk) would otherwise push the
    text legs' best hits below the head, or out of the candidates: often the passage with
    the rest of a multi-hop question's words, which only query coverage can lift."""
    weights = {leg.value: _weight(leg, r) for leg, r in results.items()}
    rankings = {leg.value: r.ranked for leg, r in results.items()}
    rankings.update({f"second {i}": r.ranked for i, r in enumerate(second)})
    weights.update({f"second {i}": 1.0 / len(second) for i in range(len(second))})
    fused = reciprocal_rank_fusion(rankings, weights)
    ordered = sorted(fused, key=lambda c: (-fused[c], c.int))  # ties as by the ids' text
    leading = set(ordered[: head_size(top_k)])
    leading.update(c for r in results.values() for c in r.ranked[:top_k])
    tail = [c for c in ordered if c not in leading][: max(0, CANDIDATES - len(leading))]
    by_second = {c for r in second for c in r.scores}
    candidates = [_candidate(c, fused[c], results, c in by_second) for c in [*leading, *tail]]
    for c in candidates:
        c.head = c.chunk_id in leading
    return sorted(candidates, key=lambda c: (-c.score, c.chunk_id.int))


def head_size(top_k: int) -> int:
    return min(CANDIDATES, max(10, 2 * top_k))


def head(candidates: list[Candidate]) -> list[Candidate]:
    return [c for c in candidates if c.head]


def diversify(
    candidates: list[Candidate],
    vectors: dict[UUID, ChunkVector],
    coverage: QueryCoverage[UUID] | None = None,
) -> list[Candidate]:
    """The head re-scored by its fused relevance, then ordered by MMR within it, with the
    query coverage each next passage adds; the tail below it."""
    relevance = normalised({c.chunk_id: c.score for c in candidates})
    tail = [c for c in candidates if not c.head]
    for c in candidates:
        c.score = relevance[c.chunk_id] + _boost(c) + (HEAD_BONUS if c.head else 0.0)
    return _diversified(head(candidates), vectors, coverage) + sorted(tail, key=lambda c: -c.score)


def reranked(candidates: list[Candidate], scores: list[float]) -> list[Candidate]:
    """The head ordered by the reranker's scores (given for the head, in order)."""
    scaled = normalised(dict(enumerate(s - min(scores) for s in scores)))
    leading = head(candidates)
    for index, c in enumerate(leading):
        c.score = HEAD_BONUS + scaled[index] + _boost(c)
    return sorted(leading, key=lambda c: -c.score) + [c for c in candidates if not c.head]


def title_linked(
    candidates: list[Candidate], texts: Mapping[UUID, str], titled: Mapping[UUID, Titled]
) -> list[Candidate]:
    """The best passages, then the candidates whose documents they name by title
    (retrieval/title_links.py), then the rest."""
    by_id = {c.chunk_id: c for c in candidates}
    was = {c.chunk_id: i for i, c in enumerate(candidates)}
    order = linked_first(list(was), texts, titled)
    lifted = {c for i, c in enumerate(order) if i < was[c]}
    return _monotonic([by_id[c] for c in order], lifted) if lifted else candidates


def graph_weight(result: LegResult) -> float:
    """The graph leg's RRF weight: 1 for a flat walk, up to GRAPH_LEAD for one whose mass
    is on a few passages, and its lead above 1 shared among the documents its most specific
    seed is mentioned in. A name that many documents mention (the subject of every section
    of one article, every chapter of one manual) is a hyperlink to none of them: the walk's
    peak is then where its restart and the documents' degrees put it, not evidence the text
    legs lack.

    The walk leads only when it starts at a document the query names by its title (the
    walk's titled start chunks). From a page about what the query names, the walk follows
    the entities that page mentions to their passages: the links a multi-hop answer crosses.
    From a name only mentioned here and there, with no document about it, its peak sits on
    the passages that mention the name, which the keyword leg finds from the same words; the
    peak then measures how rare the name is, not a link, and a lead would count the text
    legs' evidence a second time, a hundredfold. That walk weighs like a text leg (on SQuAD,
    where every title is "Article (paragraph N)", it lifted HYBRID from 86.6 / 92.7 to
    87.5 / 93.9; HotpotQA and 2Wiki, whose questions name pages by title, held: bench/
    RESULTS.md).

    A walk from no entity the query names restarts only at the dense leg's best passage: its
    ranking is that passage's neighbourhood by degree, the dense leg's vote again plus noise.
    It weighs UNNAMED_WALK, so it orders only what the text legs leave tied or did not find
    (on SQuAD, where most questions name no entity the graph knows, its vote at 1 put sibling
    paragraphs above the keyword leg's best: bench/RESULTS.md)."""
    scores = [result.scores[c] for c in result.ranked[:PEAK_RANK]]
    if not scores:
        return 1.0
    if not result.seeds:
        return UNNAMED_WALK
    if not result.titled:
        return 1.0
    peak = GRAPH_LEAD if scores[-1] <= 0 else (scores[0] / scores[-1]) ** PEAK_POWER
    lead = min(GRAPH_LEAD, max(1.0, peak))
    return float(1.0 + (lead - 1.0) / max(1, result.seed_documents))


def _weight(leg: Leg, result: LegResult) -> float:
    return graph_weight(result) if leg is Leg.GRAPH else 1.0


def _candidate(
    chunk: UUID, score: float, results: dict[Leg, LegResult], by_second: bool
) -> Candidate:
    methods = [leg for leg, r in results.items() if chunk in r.scores]
    if by_second and Leg.KEYWORD not in methods:
        methods.append(Leg.KEYWORD)
    graph = results.get(Leg.GRAPH)
    trail = graph.trails.get(chunk) if graph is not None else None
    candidate = Candidate(chunk, score, methods, trail=trail)
    candidate.score += _boost(candidate)
    return candidate


def _boost(candidate: Candidate) -> float:
    return SECTION_BOOST if Leg.SECTION in candidate.methods else 0.0


def _diversified(
    head: list[Candidate],
    vectors: dict[UUID, ChunkVector],
    coverage: QueryCoverage[UUID] | None,
) -> list[Candidate]:
    by_id = {c.chunk_id: c for c in head}
    order = mmr(
        sorted(by_id, key=lambda i: -by_id[i].score),
        {i: c.score for i, c in by_id.items()},
        _likeness(list(by_id), vectors),
        len(head),
        MMR_TRADE_OFF,
        coverage.gains if coverage else None,
    )
    return _monotonic([by_id[i] for i in order])


def _monotonic(ordered: list[Candidate], lifted: Set[UUID] = frozenset()) -> list[Candidate]:
    """Scores that fall along the new order, so merging by score keeps it; a lifted
    candidate scores just below the one before it."""
    for previous, c in pairwise(ordered):
        below = previous.score - ORDER_STEP
        c.score = below if c.chunk_id in lifted else min(c.score, below)
    return ordered


def _likeness(ids: list[UUID], vectors: dict[UUID, ChunkVector]) -> Callable[[UUID, UUID], float]:
    """Cosine of the chunks' vectors; chunks of one document count as alike, so the head
    shows other documents before a document's second passage. A chunk without a vector is
    like none. Computed for the whole head in one product: MMR asks for every pair."""
    held = [i for i in ids if i in vectors]
    at = {chunk: n for n, chunk in enumerate(held)}
    if not held:
        return lambda a, b: 0.0
    matrix = np.stack([vectors[i].vector for i in held])
    cosines = np.asarray(matrix @ matrix.T, dtype=np.float64)
    cosines[cosines < NEAR_DUPLICATE] = 0.0
    documents: dict[UUID, int] = {}
    document = np.array(
        [documents.setdefault(vectors[i].document_id, n) for n, i in enumerate(held)]
    )
    cosines[document[:, None] == document[None, :]] = 1.0
    table = cosines.tolist()
    return lambda a, b: table[at[a]][at[b]] if a in at and b in at else 0.0
