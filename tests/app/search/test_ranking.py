"""Fusing legs into one order: graph lead, the diversified head, section boost, reranked head."""

from __future__ import annotations

import uuid

import numpy as np

from app.search import ranking
from app.search.results import LegResult
from retrieval.coverage import PassageTerms, QueryCoverage
from retrieval.request import Leg
from retrieval.title_links import Titled
from store.search import ChunkVector

A, B, C, D = (uuid.UUID(int=i) for i in range(1, 5))


def leg(*chunks: uuid.UUID) -> LegResult:
    return LegResult.of([(c, 1.0 / (i + 1)) for i, c in enumerate(chunks)])


def walk(scores: list[float], seeds: int = 1, titled: bool = True) -> LegResult:
    """A graph leg ranking C first, then four filler chunks, with these PageRank scores,
    started at a document the query names by title unless `titled` is False."""
    chunks = [C, *(uuid.UUID(int=100 + i) for i in range(len(scores) - 1))]
    result = LegResult.of(list(zip(chunks, scores, strict=True)))
    result.seeds = {f"seed-{i}": f"name {i}" for i in range(seeds)}
    result.titled = titled
    return result


def test_a_peaked_walk_from_named_entities_leads() -> None:
    results = {Leg.KEYWORD: leg(A, B), Leg.SEMANTIC: leg(A, B), Leg.GRAPH: walk([0.5, *[0.01] * 4])}
    assert ranking.graph_weight(results[Leg.GRAPH]) == ranking.GRAPH_LEAD
    assert next(c.chunk_id for c in ranking.fuse(results, 5)) == C


def test_a_flat_walk_weighs_like_a_text_leg() -> None:
    flat = walk([0.2, 0.19, 0.18, 0.18, 0.17])
    assert 1.0 <= ranking.graph_weight(flat) < 1.5
    results = {Leg.KEYWORD: leg(A, B), Leg.SEMANTIC: leg(A, B), Leg.GRAPH: flat}
    assert next(c.chunk_id for c in ranking.fuse(results, 5)) == A


def test_a_walk_from_no_named_entity_only_orders_what_the_text_legs_leave_tied() -> None:
    """It restarts at the dense leg's best passage alone: its vote at 1 would outvote the
    keyword leg's best (A) with the dense leg's (B) and its neighbour (C)."""
    unnamed = walk([0.5, *[0.01] * 4], seeds=0)
    unnamed.ranked[1:1] = [B]
    unnamed.scores[B] = 0.4
    assert ranking.graph_weight(unnamed) == ranking.UNNAMED_WALK
    results = {Leg.KEYWORD: leg(A, D, B), Leg.SEMANTIC: leg(B, A), Leg.GRAPH: unnamed}
    assert [c.chunk_id for c in ranking.fuse(results, 5)][:2] == [A, B]
    alone = ranking.fuse({Leg.GRAPH: unnamed}, 5)  # GRAPH mode: the walk's own order
    assert [c.chunk_id for c in alone][:2] == [C, B]


def test_the_weight_grows_with_the_peak() -> None:
    weights = [ranking.graph_weight(walk([top, *[0.1] * 4])) for top in (0.2, 0.4, 0.8)]
    assert weights == sorted(weights) and weights[0] < weights[-1] < ranking.GRAPH_LEAD


def test_a_walk_from_a_name_many_documents_share_leads_less() -> None:
    """The lead above 1 is shared among the documents the most specific seed is mentioned
    in: the subject of 200 sections points the walk at none of them."""
    specific, shared = walk([0.5, *[0.01] * 4]), walk([0.5, *[0.01] * 4])
    shared.seed_documents = 200
    assert ranking.graph_weight(specific) == ranking.GRAPH_LEAD
    assert ranking.graph_weight(shared) == 1.0 + (ranking.GRAPH_LEAD - 1.0) / 200
    results = {Leg.KEYWORD: leg(A, B), Leg.SEMANTIC: leg(A, B), Leg.GRAPH: shared}
    assert next(c.chunk_id for c in ranking.fuse(results, 5)) == A


def test_a_peaked_walk_from_a_name_no_document_is_about_weighs_like_a_text_leg() -> None:
    """Its peak is on the passages that mention the name, which the keyword leg finds from
    the same words: it votes, and does not lead."""
    untitled = walk([0.5, *[0.01] * 4], titled=False)
    assert ranking.graph_weight(untitled) == 1.0
    results = {Leg.KEYWORD: leg(A, B), Leg.SEMANTIC: leg(A, B), Leg.GRAPH: untitled}
    assert [c.chunk_id for c in ranking.fuse(results, 5)][:2] == [A, B]


def test_methods_and_section_boost() -> None:
    results = {Leg.KEYWORD: leg(A, B), Leg.SECTION: leg(B)}
    fused = ranking.fuse(results, 5)
    assert fused[0].chunk_id == B and fused[0].methods == [Leg.KEYWORD, Leg.SECTION]


def test_each_leg_s_best_hits_reach_the_head_under_a_peaked_walk() -> None:
    """The walk's 60 passages outweigh the keyword leg's best, D, which still heads."""
    walked = [uuid.UUID(int=200 + i) for i in range(60)]
    graph = LegResult.of([(c, 1.0 / (i + 1) ** 3) for i, c in enumerate(walked)])
    graph.seeds, graph.titled = {"seed": "name"}, True
    fused = ranking.fuse({Leg.KEYWORD: leg(D, A), Leg.GRAPH: graph}, 1)
    assert ranking.graph_weight(graph) == ranking.GRAPH_LEAD
    assert [c.chunk_id for c in ranking.head(fused)] == [*walked[:10], D]
    assert len(fused) == ranking.CANDIDATES and A not in [c.chunk_id for c in fused]
    assert [c.score for c in fused] == sorted((c.score for c in fused), reverse=True)


def test_the_head_keeps_its_fused_order_above_the_tail_whatever_the_query_similarity() -> None:
    """The dense leg voted in fusion; the head's re-scoring gives it no second vote."""
    candidates = [
        ranking.Candidate(c, 1.0 - i * 0.01, [Leg.KEYWORD], head=c != D)
        for i, c in enumerate((A, B, C, D))
    ]
    vectors = {
        c: ChunkVector(c, np.eye(4, dtype=np.float32)[i], c) for i, c in enumerate((A, B, C, D))
    }
    ordered = ranking.diversify(candidates, vectors)
    assert [c.chunk_id for c in ordered] == [A, B, C, D]
    assert ordered[2].score > ordered[3].score


def test_a_reranked_head_follows_the_reranker() -> None:
    candidates = [ranking.Candidate(c, 0.05, [Leg.KEYWORD], head=c != C) for c in (A, B, C)]
    ordered = ranking.reranked(candidates, [0.1, 0.9])
    assert [c.chunk_id for c in ordered] == [B, A, C]
    assert ordered[1].score > ordered[2].score


def _graph_head(*chunks: uuid.UUID) -> list[ranking.Candidate]:
    return [
        ranking.Candidate(c, 1.0 - i * 0.01, [Leg.GRAPH], head=True) for i, c in enumerate(chunks)
    ]


def _vectors(rows: list[tuple[uuid.UUID, list[float], uuid.UUID]]) -> dict[uuid.UUID, ChunkVector]:
    return {
        c: ChunkVector(c, np.array(v, dtype=np.float32) / np.linalg.norm(v), doc)
        for c, v, doc in rows
    }


def test_a_documents_second_passage_yields_to_other_documents() -> None:
    vectors = _vectors([(A, [1, 0, 0], A), (B, [0, 1, 0], A), (C, [0, 0, 1], C)])
    ordered = ranking.diversify(_graph_head(A, B, C), vectors)
    assert [c.chunk_id for c in ordered] == [A, C, B]
    assert ordered[0].score > ordered[1].score > ordered[2].score  # merging keeps the order


def test_near_duplicates_are_kept_apart_and_distinct_chunks_keep_their_order() -> None:
    duplicates = _vectors([(A, [1, 0, 0], A), (B, [1, 0.1, 0], B), (C, [0, 0, 1], C)])
    ordered = ranking.diversify(_graph_head(A, B, C), duplicates)
    assert [c.chunk_id for c in ordered] == [A, C, B]
    related = _vectors([(A, [1, 0, 0], A), (B, [1, 1, 0], B), (C, [0, 0, 1], C)])
    ordered = ranking.diversify(_graph_head(A, B, C), related)
    assert [c.chunk_id for c in ordered] == [A, B, C]  # cosine 0.71 is no duplicate


def test_the_passage_that_answers_the_rest_of_the_query_comes_after_the_first() -> None:
    """A (the team) names C (its conference), which holds the rest of the question's words;
    B, another of the team's pages, repeats what A already covers."""
    coverage = QueryCoverage(
        {"otter": 0.4, "confer": 0.2, "formerli": 0.2, "known": 0.2},
        {
            A: PassageTerms(frozenset({"otter", "confer", "harbor"}), frozenset({"otter"})),
            B: PassageTerms(frozenset({"otter", "confer", "swim"}), frozenset({"otter", "swim"})),
            C: PassageTerms(frozenset({"harbor", "formerli", "known"}), frozenset({"harbor"})),
        },
    )
    vectors = _vectors([(A, [1, 0, 0], A), (B, [0, 1, 0], B), (C, [0, 0, 1], C)])
    plain = ranking.diversify(_graph_head(A, B, C), vectors)
    assert [c.chunk_id for c in plain] == [A, B, C]
    covered = ranking.diversify(_graph_head(A, B, C), vectors, coverage)
    assert [c.chunk_id for c in covered] == [A, C, B]
    assert covered[0].score > covered[1].score > covered[2].score


def test_a_title_link_lifts_a_candidate_and_scores_fall_along_the_new_order() -> None:
    """E's document is named by the best passage: it follows the best three, scoring just
    below the third, and the passages it passed score below it."""
    E = uuid.UUID(int=5)
    candidates = [
        ranking.Candidate(c, 2.0 - i / 10, [Leg.KEYWORD]) for i, c in enumerate((A, B, C, D, E))
    ]
    titled = {c: Titled(c, f"Title {c.int}") for c in (A, B, C, D)}
    titled[E] = Titled(E, "Mira Vance")
    linked = ranking.title_linked(candidates, {A: "Written by Mira Vance."}, titled)
    assert [c.chunk_id for c in linked] == [A, B, C, E, D]
    scores = [c.score for c in linked]
    assert scores == sorted(scores, reverse=True) and scores[3] > 1.7 - 1e-3
    assert ranking.title_linked(candidates[:2], {}, {}) == candidates[:2]


def test_a_second_round_weighs_as_one_text_leg() -> None:
    """Two second-round searches ranking D first add what one text leg would, not twice it
    (which would tie D with A): the first round's second-best, B, stays ahead of D."""
    results = {Leg.KEYWORD: leg(A, B), Leg.SEMANTIC: leg(A, B)}
    fused = ranking.fuse(results, 5, [leg(D), leg(D)])
    assert [c.chunk_id for c in fused] == [A, B, D]
    assert fused[2].methods == [Leg.KEYWORD]
