"""Fusing the legs' rankings: Reciprocal Rank Fusion on positions, a score blend, and MMR.

RRF never looks at raw scores: BM25, cosine similarity and PageRank live on different scales.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TypeVar

RRF_K = 60
K = TypeVar("K", bound=Hashable)


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[K]], weights: Mapping[str, float] | None = None
) -> dict[K, float]:
    """item -> sum over legs of weight / (RRF_K + rank), ranks from 1."""
    fused: dict[K, float] = {}
    for leg, items in rankings.items():
        weight = 1.0 if weights is None else weights.get(leg, 1.0)
        for rank, item in enumerate(items, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (RRF_K + rank)
    return fused


def normalised(scores: Mapping[K, float]) -> dict[K, float]:
    """Scores scaled to [0, 1] by the best one (0 stays 0)."""
    best = max(scores.values(), default=0.0)
    return {k: (v / best if best > 0 else 0.0) for k, v in scores.items()}


def mmr(
    candidates: Sequence[K],
    relevance: Mapping[K, float],
    similarity: Callable[[K, K], float],
    k: int,
    trade_off: float = 0.7,
    bonus: Callable[[Sequence[K]], Callable[[K], float]] | None = None,
) -> list[K]:
    """Maximal Marginal Relevance: each next pick trades relevance against its likeness to
    what is already picked, so near-duplicates do not crowd the list. `bonus`, given the
    picks, adds to each candidate's relevance what it is worth beside them
    (retrieval/coverage.py)."""
    picked: list[K] = []
    left = list(candidates)
    closest = dict.fromkeys(left, 0.0)  # each one's likeness to the nearest pick so far
    while left and len(picked) < k:
        beside = bonus(picked) if bonus else _nothing
        best = max(
            left,
            key=lambda c: trade_off * (relevance[c] + beside(c)) - (1 - trade_off) * closest[c],
        )
        picked.append(best)
        left.remove(best)
        for c in left:  # only the new pick can change the nearest: n² likenesses, not n³
            closest[c] = max(closest[c], similarity(c, best))
    return picked


def _nothing(candidate: object) -> float:
    return 0.0
