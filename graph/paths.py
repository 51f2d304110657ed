"""Relationship paths between two entities: a bidirectional breadth-first search.

Both ends expand in turn (the smaller frontier first) with the bounded step of
`graph.expansion`, so a path of length L costs about two searches of depth L/2. Paths come
shortest first, then by the total weight of the evidence along them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from graph.driver import GraphStore
from graph.expansion import step
from graph.temporal import TimeFilter

FANOUT = 50
MAX_FRONTIER = 300
MAX_PATHS_PER_MEET = 20


@dataclass
class _Side:
    frontier: list[str]
    depth: dict[str, int]
    parents: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class FoundPaths:
    paths: list[list[str]] = field(default_factory=list)  # entity ids, end to end
    weight: dict[frozenset[str], float] = field(default_factory=dict)
    truncated: bool = False

    def total(self, path: list[str]) -> float:
        return sum(self.weight[frozenset(p)] for p in itertools.pairwise(path))


async def find_paths(
    graph: GraphStore,
    tenant_id: str,
    source: str,
    target: str,
    max_hops: int,
    time: TimeFilter,
    first: int,
) -> FoundPaths:
    found = FoundPaths()
    forward, backward = _Side([source], {source: 0}), _Side([target], {target: 0})
    hops = 0
    while hops < max_hops and forward.frontier and backward.frontier:
        side = forward if len(forward.frontier) <= len(backward.frontier) else backward
        await _advance(graph, tenant_id, side, time, found)
        hops += 1
        found.paths = _join(forward, backward, found)
        if len(found.paths) >= first:
            break
    found.paths = found.paths[:first]
    return found


async def _advance(
    graph: GraphStore, tenant_id: str, side: _Side, time: TimeFilter, found: FoundPaths
) -> None:
    expanded = await step(graph, tenant_id, side.frontier, time, [], FANOUT)
    found.truncated |= expanded.truncated
    reached: dict[str, float] = {}
    for source, neighbours in expanded.neighbours.items():
        depth = side.depth[source] + 1
        for entity, weight in neighbours:
            found.weight[frozenset((source, entity))] = weight
            if side.depth.setdefault(entity, depth) == depth:
                side.parents.setdefault(entity, []).append(source)
                reached[entity] = max(reached.get(entity, 0.0), weight)
    ordered = sorted(reached, key=lambda e: (-reached[e], e))
    found.truncated |= len(ordered) > MAX_FRONTIER
    side.frontier = ordered[:MAX_FRONTIER]


def _join(forward: _Side, backward: _Side, found: FoundPaths) -> list[list[str]]:
    paths: dict[tuple[str, ...], None] = {}
    for meet in forward.depth.keys() & backward.depth.keys():
        for head in _chains(forward, meet):
            for tail in _chains(backward, meet):
                path = head + tail[::-1][1:]
                if len(set(path)) == len(path):
                    paths[tuple(path)] = None
    return sorted((list(p) for p in paths), key=lambda p: (len(p), -found.total(p), p))


def _chains(side: _Side, node: str) -> list[list[str]]:
    """Every shortest chain from the side's origin to `node`, origin first (bounded)."""
    if side.depth[node] == 0:
        return [[node]]
    chains: list[list[str]] = []
    for parent in side.parents.get(node, []):
        for chain in _chains(side, parent):
            chains.append([*chain, node])
            if len(chains) >= MAX_PATHS_PER_MEET:
                return chains
    return chains
