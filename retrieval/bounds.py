"""How much of a hub one step of a graph read examines: a bounded number of edges per node,
fewer when the frontier is wide, so a hub with 100k edges costs no more than any other node.
"""

from __future__ import annotations

SCAN_PER_NODE = 2000  # edges examined per node; more means a hub, and a truncated answer
STEP_BUDGET = 8_000  # edges a whole step examines, about
MIN_SCAN = 50
MAX_FRONTIER = STEP_BUDGET // MIN_SCAN  # nodes one step expands; past it, the strongest


def scan_per_node(frontier: int, budget: int = STEP_BUDGET) -> int:
    return max(MIN_SCAN, min(SCAN_PER_NODE, budget // max(frontier, 1)))


def capped(strongest_first: list[str]) -> tuple[list[str], bool]:
    """The nodes one step may expand, and whether some were left out: without a cap, a
    frontier of 10,000 chunks would examine MIN_SCAN edges each, half a million in all."""
    return strongest_first[:MAX_FRONTIER], len(strongest_first) > MAX_FRONTIER
