"""Reciprocal Rank Fusion, normalisation and MMR."""

from __future__ import annotations

from collections.abc import Sequence

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

    def bonus(candidate: str, picked: Sequence[str]) -> float:
        return 0.5 if candidate == "b" and "a" in picked else 0.0

    assert mmr(["a", "a2", "b"], relevance, lambda x, y: 0.0, 3) == ["a", "a2", "b"]
    assert mmr(["a", "a2", "b"], relevance, lambda x, y: 0.0, 3, bonus=bonus) == ["a", "b", "a2"]
