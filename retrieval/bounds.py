"""How much of a hub one step of a graph read examines: a bounded number of edges per node,
fewer when the frontier is wide, so a hub with 100k edges costs no more than any other node.
"""

from __future__ import annotations

SCAN_PER_NODE = 2000  # edges examined per node; more means a hub, and a truncated answer
STEP_BUDGET = 8_000  # edges a whole step examines, about
MIN_SCAN = 50


def scan_per_node(frontier: int, budget: int = STEP_BUDGET) -> int:
    return max(MIN_SCAN, min(SCAN_PER_NODE, budget // max(frontier, 1)))
