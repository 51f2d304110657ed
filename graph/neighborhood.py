"""An entity's local neighbourhood: entities within `hops`, and the edges among them."""

from __future__ import annotations

from dataclasses import dataclass, field

from graph.driver import GraphStore
from graph.edges import Edge
from graph.expansion import step
from graph.relationships import edges_among
from graph.temporal import TimeFilter
from retrieval.bounds import STEP_BUDGET

EDGES_PER_NODE = 5
SCAN_PER_NEEDED = 200  # edges examined per entity still wanted, across the frontier


@dataclass
class Neighborhood:
    center: str
    hop_of: dict[str, int] = field(default_factory=dict)  # entity -> hops from the center
    edges: list[Edge] = field(default_factory=list)
    truncated: bool = False


async def neighborhood(
    graph: GraphStore,
    tenant_id: str,
    center: str,
    hops: int,
    time: TimeFilter,
    predicates: list[str],
    first: int,
) -> Neighborhood:
    """Up to `first` entities besides the center, nearest hop first, strongest first."""
    found = Neighborhood(center, {center: 0})
    frontier = [center]
    for hop in range(1, hops + 1):
        room = first + 1 - len(found.hop_of)
        if room <= 0:
            found.truncated = True  # farther hops were not explored
            break
        budget = min(STEP_BUDGET, SCAN_PER_NEEDED * room)  # a few more entities need few edges
        expanded = await step(graph, tenant_id, frontier, time, predicates, room, budget)
        found.truncated |= expanded.truncated
        frontier = _admit(found, expanded.neighbours, hop, first)
        if not frontier:
            break
    limit = EDGES_PER_NODE * (len(found.hop_of) + 1)
    found.edges = await edges_among(graph, tenant_id, list(found.hop_of), time, predicates, limit)
    found.truncated |= len(found.edges) >= limit
    return found


def _admit(
    found: Neighborhood, neighbours: dict[str, list[tuple[str, float]]], hop: int, first: int
) -> list[str]:
    """New entities, strongest first, while there is room; returns them."""
    candidates = sorted(
        ((weight, entity) for pairs in neighbours.values() for entity, weight in pairs),
        key=lambda c: (-c[0], c[1]),
    )
    admitted: list[str] = []
    for _, entity in candidates:
        if entity in found.hop_of:
            continue
        if len(found.hop_of) > first:
            found.truncated = True
            break
        found.hop_of[entity] = hop
        admitted.append(entity)
    return admitted
