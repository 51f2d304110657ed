"""Personalized PageRank over a bounded entity-chunk graph (the method HippoRAG uses).

`graph.subgraph` fetches the graph from Neo4j; the ranking here is arithmetic only.

Power iteration with numpy on the subgraph only: memory is proportional to the edges
fetched, never to the whole collection.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain, repeat

import numpy as np
from numpy.typing import NDArray

ALPHA = 0.3  # restart probability (0.3 edged out 0.5 and 0.7 on 2Wiki)
ANCHOR_SHARE = 0.1  # of the restart mass on anchor passages when the query also names seeds
ITERATIONS = 100
TOLERANCE = 1e-10
CHECK_EVERY = 4  # steps between convergence checks


@dataclass
class Subgraph:
    """Weighted entity-chunk edges, and for each reached node the node it was reached from."""

    edges: dict[tuple[str, str], float] = field(default_factory=dict)  # (entity, chunk)
    parent: dict[str, str] = field(default_factory=dict)
    chunks: set[str] = field(default_factory=set)
    truncated: bool = False
    roots: set[str] = field(default_factory=set)  # the seeds: reached from nothing


@dataclass(frozen=True)
class Restart:
    """Where the walk restarts.

    Seeds are the entities a query names, and chunks it names (a quoted title); each is
    discounted by its degree, since a hub says less. Weighted seeds are entities the query
    is less sure of (those of facts it resembles): a seed weighing less than 1, discounted
    the same way. Anchors are passages the text legs found (dense similarity), weighted by
    their score: they let the walk start from what the query resembles when it names
    nothing, and hold ANCHOR_SHARE of the mass when it does (a larger share swallowed the
    seeds' mass and cost 2Wiki R@2, bench/RESULTS.md).
    """

    seeds: tuple[str, ...] = ()  # entities
    chunks: tuple[str, ...] = ()  # chunks the query names, weighted as seeds
    anchors: tuple[tuple[str, float], ...] = ()  # (chunk, score)
    weighted: tuple[tuple[str, float], ...] = ()  # (entity, weight up to 1)

    @property
    def entities(self) -> list[str]:
        return list(dict.fromkeys([*self.seeds, *(e for e, _ in self.weighted)]))

    @property
    def start_chunks(self) -> list[str]:
        return list(dict.fromkeys([*self.chunks, *(a for a, _ in self.anchors)]))

    @property
    def nodes(self) -> list[str]:
        return [*self.entities, *self.start_chunks]


@dataclass(frozen=True)
class RankedChunk:
    chunk_id: str
    score: float
    path: list[str]  # seed entity, chunk, entity, ..., this chunk


def rank_chunks(sub: Subgraph, start: Restart, first: int) -> list[RankedChunk]:
    """The best `first` chunks of the walk, each with its path from an entity it was reached
    by (an anchor passage itself has none)."""
    nodes = edge_ends(sub.edges)
    if not nodes or set(start.nodes).isdisjoint(nodes):
        return []
    scores = personalized_pagerank(nodes, sub.edges, start)
    ranked = highest(scores, sub.chunks, first)
    return [
        RankedChunk(c, scores[c], _entity_path(sub, c)) for c in ranked if scores.get(c, 0.0) > 0
    ]


def edge_ends(edges: Iterable[tuple[str, str]]) -> list[str]:
    """The distinct nodes of `edges`, in the order the edges first name them. The ranks do
    not depend on the nodes' order (but for rounding in a sum's last bit), and ties are
    broken by id where ranks are read (`highest`), so they are not sorted: sorting thousands
    of ids, twice a search, was a fifth of the walk's ranking (a sampled server, py-spy)."""
    return list(dict.fromkeys(chain.from_iterable(edges)))


def highest(scores: Mapping[str, float], ids: Iterable[str], first: int) -> list[str]:
    """The `first` of `ids` that score highest (0 when unscored), ties by id. A walk ranks
    hundreds of chunks to keep a few, twice a search: the ids sort by the library, the
    scores by numpy's stable sort, with no Python key per id."""
    ordered = sorted(ids)
    values = np.fromiter(map(scores.get, ordered, repeat(0.0)), np.float64, len(ordered))
    return [ordered[i] for i in np.argsort(-values, kind="stable")[:first].tolist()]


def personalized_pagerank(
    nodes: list[str], edges: dict[tuple[str, str], float], start: Restart
) -> dict[str, float]:
    """Each node's rank; `nodes` are distinct. A search runs this twice on a subgraph of
    thousands of edges, so the arrays are built without a Python step per edge end where
    the library can iterate instead."""
    index = dict(zip(nodes, range(len(nodes)), strict=True))
    ends = np.fromiter(map(index.__getitem__, chain.from_iterable(edges)), np.int64, 2 * len(edges))
    a = np.concatenate((ends[0::2], ends[1::2]))  # each edge both ways
    b = np.concatenate((ends[1::2], ends[0::2]))
    w = np.tile(np.fromiter(edges.values(), dtype=np.float64, count=len(edges)), 2)
    degree = np.bincount(a, weights=w, minlength=len(nodes)).astype(np.float64)
    # Row-normalised (a walker at a moves to b), times the chance it does not restart.
    moving = (1 - ALPHA) * (w / degree[a])
    restart = _restart_vector(index, start, degree)
    restarting = ALPHA * restart
    rank = restart.copy()
    for step in range(1, ITERATIONS + 1):
        updated = restarting + np.bincount(b, weights=moving * rank[a], minlength=len(nodes))
        # Checked every few steps: on a subgraph of a few thousand edges the check costs as
        # much as the step, and a few more steps only converge further.
        if step % CHECK_EVERY == 0 and np.abs(updated - rank).sum() < TOLERANCE:
            rank = updated
            break
        rank = updated
    return dict(zip(nodes, rank.tolist(), strict=True))


def _restart_vector(
    index: dict[str, int], start: Restart, degree: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Seeds weighted 1/log(2 + degree) (times their own weight, for weighted seeds),
    anchors by their scores, each group normalised."""
    seeds, anchors = np.zeros(len(index)), np.zeros(len(index))
    named = [(s, 1.0) for s in (*start.seeds, *start.chunks)]
    for seed, weight in ((s, w) for s, w in (*start.weighted, *named) if s in index):
        seeds[index[seed]] = weight / math.log(2 + degree[index[seed]])
    for anchor, weight in ((a, w) for a, w in start.anchors if a in index):
        anchors[index[anchor]] = max(weight, 0.0)
    share = ANCHOR_SHARE if seeds.sum() > 0 else 1.0
    return _unit((1 - share) * _unit(seeds) + share * _unit(anchors))


def _unit(weights: NDArray[np.float64]) -> NDArray[np.float64]:
    total = float(weights.sum())
    scaled: NDArray[np.float64] = weights / total if total > 0 else weights
    return scaled


def _entity_path(sub: Subgraph, chunk: str) -> list[str]:
    """The path to a chunk from the entity that began it: a walk from an anchor passage
    begins at the anchor's entity."""
    path = path_to(sub, chunk)
    return path[1:] if path[0] in sub.chunks else path


def path_to(sub: Subgraph, node: str) -> list[str]:
    path = [node]
    while path[-1] in sub.parent and len(path) < 64:
        path.append(sub.parent[path[-1]])
    return path[::-1]
