"""Fusing legs into one order: graph lead, the blended head, section boost, reranked head."""

from __future__ import annotations

import uuid

import numpy as np

from app import ranking
from app.search_legs import LegResult
from retrieval.request import Leg
from store.search import ChunkVector

A, B, C, D = (uuid.UUID(int=i) for i in range(1, 5))


def leg(*chunks: uuid.UUID, seeds: int = 0) -> LegResult:
    result = LegResult.of([(c, 1.0 / (i + 1)) for i, c in enumerate(chunks)])
    result.seeds = seeds
    return result


def test_the_graph_leads_when_the_query_names_known_entities() -> None:
    results = {Leg.KEYWORD: leg(A, B), Leg.SEMANTIC: leg(A, B), Leg.GRAPH: leg(C, seeds=1)}
    assert next(c.chunk_id for c in ranking.fuse(results)) == C
    assert ranking.graph_led(results)
    results[Leg.GRAPH] = leg(C, seeds=0)
    assert next(c.chunk_id for c in ranking.fuse(results)) == A


def test_methods_and_section_boost() -> None:
    results = {Leg.KEYWORD: leg(A, B), Leg.SECTION: leg(B)}
    fused = ranking.fuse(results)
    assert fused[0].chunk_id == B and fused[0].methods == [Leg.KEYWORD, Leg.SECTION]


def test_the_blend_reorders_the_head_and_keeps_it_above_the_tail() -> None:
    candidates = [
        ranking.Candidate(c, 1.0 - i * 0.01, [Leg.KEYWORD]) for i, c in enumerate((A, B, C, D))
    ]
    vectors = {
        c: ChunkVector(c, sim, np.eye(4, dtype=np.float32)[i])
        for i, (c, sim) in enumerate(((A, 0.1), (B, 0.9), (C, 0.5), (D, 0.99)))
    }
    ranking.CANDIDATES, size = 50, ranking.head_size(1)
    assert size == 10
    ordered = ranking.blend(candidates, vectors, 1, graph_led=False)
    assert [c.chunk_id for c in ordered] == [D, B, C, A]
    kept = ranking.blend(
        [ranking.Candidate(c, 1.0 - i * 0.1, [Leg.GRAPH]) for i, c in enumerate((A, B))],
        vectors,
        1,
        graph_led=True,
    )
    assert [c.chunk_id for c in kept] == [A, B]


def test_a_reranked_head_follows_the_reranker() -> None:
    candidates = [ranking.Candidate(c, 0.05, [Leg.KEYWORD]) for c in (A, B, C)]  # RRF-sized
    ordered = ranking.reranked(candidates, [0.1, 0.9], 1)
    assert [c.chunk_id for c in ordered] == [B, A, C]
    assert ordered[1].score > ordered[2].score
