"""One breadth-first step over the entity graph, bounded per node and per step.

Each frontier entity examines at most `SCAN_PER_NODE` edges (fewer when the frontier is wide:
a step examines about `STEP_BUDGET` edges in all) and keeps its `fanout` strongest
neighbours, so a hub with 100k edges costs no more than any other node; the step says when
a bound cut something off.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from graph.driver import GraphStore
from graph.temporal import TimeFilter, edge_condition
from retrieval.bounds import STEP_BUDGET, scan_per_node

_STEP = (
    "UNWIND $ids AS id MATCH (s:Entity {id: id, tenant_id: $tenant})"
    " CALL (s) { MATCH (s)-[r:RELATED|CO_OCCURS]-(n:Entity) WITH r, n LIMIT $scan WHERE "
)
_STEP_END = (
    " WITH n, sum(coalesce(r.weight, 1.0)) AS weight"
    " RETURN n.id AS neighbour, weight ORDER BY weight DESC, neighbour LIMIT $limit }"
    " RETURN s.id AS source, neighbour, weight,"
    " COUNT { (s)-[:RELATED|CO_OCCURS]-() } > $scan AS hub"
)


@dataclass
class Step:
    """For each source, its neighbours strongest first, with the pair's total weight."""

    neighbours: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    truncated: bool = False


async def step(
    graph: GraphStore,
    tenant_id: str,
    ids: list[str],
    time: TimeFilter,
    predicates: list[str],
    fanout: int,
    budget: int = STEP_BUDGET,
) -> Step:
    records = await graph.read(
        _STEP + edge_condition(time) + _STEP_END,
        ids=ids,
        tenant=tenant_id,
        predicates=predicates,
        scan=scan_per_node(len(ids), budget),
        limit=fanout + 1,
        **time.params(),
    )
    result = Step()
    for record in records:
        kept = result.neighbours.setdefault(record["source"], [])
        result.truncated |= bool(record["hub"])
        if len(kept) == fanout:
            result.truncated = True
        else:
            kept.append((record["neighbour"], float(record["weight"])))
    return result
