"""Communities of a weighted entity graph (Leiden, through igraph and leidenalg), and PageRank.

Deterministic: a fixed seed, and vertices numbered in sorted id order.
"""

from __future__ import annotations

from dataclasses import dataclass

import igraph
import leidenalg

SEED = 42


@dataclass(frozen=True)
class Communities:
    members: list[list[str]]  # largest first; entity ids
    pagerank: dict[str, float]


def detect(edges: dict[tuple[str, str], float], min_size: int = 2) -> Communities:
    """Communities of at least `min_size` entities, largest first, ties by first id."""
    nodes = sorted({n for edge in edges for n in edge})
    if not nodes:
        return Communities([], {})
    index = {n: i for i, n in enumerate(nodes)}
    graph = igraph.Graph(n=len(nodes), edges=[(index[a], index[b]) for a, b in edges])
    graph.es["weight"] = list(edges.values())
    partition = leidenalg.find_partition(
        graph, leidenalg.ModularityVertexPartition, weights="weight", seed=SEED
    )
    ranks = graph.pagerank(weights="weight")
    members = [sorted(nodes[i] for i in part) for part in partition if len(part) >= min_size]
    members.sort(key=lambda m: (-len(m), m[0]))
    return Communities(members, {n: float(ranks[i]) for i, n in enumerate(nodes)})
