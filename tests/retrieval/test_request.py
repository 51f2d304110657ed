"""A search request's defaults that depend on its mode."""

from __future__ import annotations

from retrieval.request import Leg, Mode, SearchRequest


def test_the_second_round_runs_by_default_in_hybrid_only() -> None:
    assert SearchRequest(("c",), "q").runs_second_round()
    assert not SearchRequest(("c",), "q", Mode.KEYWORD).runs_second_round()
    assert not SearchRequest(("c",), "q", second_round=False).runs_second_round()
    assert SearchRequest(("c",), "q", Mode.GRAPH, second_round=True).runs_second_round()


def test_a_single_mode_runs_its_own_leg() -> None:
    assert SearchRequest(("c",), "q", Mode.GRAPH).active_legs() == (Leg.GRAPH,)
    assert SearchRequest(("c",), "q", legs=(Leg.KEYWORD,)).active_legs() == (Leg.KEYWORD,)
