"""Reciprocal Rank Fusion, normalisation and MMR."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from retrieval.fusion import RRF_K, mmr, normalised, reciprocal_rank_fusion


def test_rrf_uses_ranks_not_scores() -> None:
    fused = reciprocal_rank_fusion({"a": ["x", "y"], "b": ["y", "z"]})
    assert fused["y"] == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert fused["y"] > fused["x"] > fused["z"]


def test_a_weighted_leg_leads() -> None:
    fused = reciprocal_rank_fusion({"graph": ["g"], "text": ["t"]}, {"graph": 4.0})
    assert fused["g"] == pytest.approx(4 * fused["t"])


def test_normalised_scales_by_the_best() -> None:
    assert normalised({"a": 2.0, "b": 1.0}) == {"a": 1.0, "b": 0.5}
    assert normalised({"a": 0.0}) == {"a": 0.0}


def test_mmr_keeps_a_near_duplicate_back() -> None:
    relevance = {"a": 1.0, "a2": 0.99, "b": 0.8}
    same = {frozenset(("a", "a2"))}

    def similarity(x: str, y: str) -> float:
        return 1.0 if frozenset((x, y)) in same else 0.0

    assert mmr(["a", "a2", "b"], relevance, similarity, 3) == ["a", "b", "a2"]


def test_mmr_adds_a_bonus_that_depends_on_the_picks() -> None:
    relevance = {"a": 1.0, "a2": 0.9, "b": 0.8}

    def bonus(picked: Sequence[str]) -> Callable[[str], float]:
        return lambda candidate: 0.5 if candidate == "b" and "a" in picked else 0.0

    assert mmr(["a", "a2", "b"], relevance, lambda x, y: 0.0, 3) == ["a", "a2", "b"]
    assert mmr(["a", "a2", "b"], relevance, lambda x, y: 0.0, 3, bonus=bonus) == ["a", "b", "a2"]


def test_mmr_picks_as_the_definition_does() -> None:
    """Each pick maximises trade-off x relevance - (1 - trade-off) x its likeness to the
    nearest pick so far: keeping each candidate's nearest pick gives the same order as
    comparing it with every pick at every step."""
    rng = random.Random(7)
    for _ in range(50):
        keys = [f"c{i}" for i in range(rng.randint(1, 15))]
        relevance = {k: rng.random() for k in keys}
        likeness = {frozenset((a, b)): rng.random() for a in keys for b in keys if a != b}
        similarity = _lookup(likeness)
        assert mmr(keys, relevance, similarity, 10) == _mmr_by_definition(
            keys, relevance, similarity, 10
        )


def _lookup(likeness: dict[frozenset[str], float]) -> Callable[[str, str], float]:
    return lambda x, y: likeness[frozenset((x, y))]


def _mmr_by_definition(
    keys: list[str], relevance: dict[str, float], similarity: Callable[[str, str], float], k: int
) -> list[str]:
    picked: list[str] = []
    left = list(keys)
    while left and len(picked) < k:
        best = max(
            left,
            key=lambda c: (
                0.7 * relevance[c] - 0.3 * max((similarity(c, p) for p in picked), default=0)
            ),
        )
        picked.append(best)
        left.remove(best)
    return picked
