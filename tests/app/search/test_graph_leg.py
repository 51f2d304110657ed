"""The graph leg's bound on cue weighting: a hub seed's cues are read in the passages most
strongly tied to it, per seed, in an order that does not follow a set's."""

from __future__ import annotations

from app.search.graph_leg import _strongest_per_seed
from retrieval.ppr import Subgraph


def _hub_and_leaf() -> Subgraph:
    sub = Subgraph()
    for i in range(30):  # the hub: 30 passages, tied to it by weights 0..29
        sub.edges[("hub", f"h{i:02d}")] = float(i)
        sub.parent[f"h{i:02d}"] = "hub"
    for i in range(3):
        sub.edges[("leaf", f"l{i}")] = 1.0
        sub.parent[f"l{i}"] = "leaf"
    sub.edges[("other", "x")] = 50.0  # reached from no seed
    sub.parent["x"] = "other"
    sub.chunks = {*sub.parent}
    return sub


def test_each_seed_keeps_its_most_strongly_tied_passages() -> None:
    kept = _strongest_per_seed(_hub_and_leaf(), {"hub", "leaf"}, 5)
    assert [c for c in kept if c.startswith("h")] == ["h29", "h28", "h27", "h26", "h25"]
    assert sorted(c for c in kept if c.startswith("l")) == ["l0", "l1", "l2"]  # under the cap
    assert "x" not in kept


def test_ties_are_broken_by_id() -> None:
    sub = _hub_and_leaf()
    assert _strongest_per_seed(sub, {"leaf"}, 2) == ["l0", "l1"]
