"""Fair shares of a queue: every owner's oldest work first, then their next, in turn."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

Owner = TypeVar("Owner", bound=Hashable)
Item = TypeVar("Item")


def round_robin(queue: list[tuple[Owner, Item]]) -> list[Item]:
    """Items of a queue in oldest-first order, reordered so owners take turns: each owner's
    first item (owners in the order they first appear), then each one's second, and so on."""
    lanes: dict[Owner, list[Item]] = {}
    for owner, item in queue:
        lanes.setdefault(owner, []).append(item)
    turns: list[Item] = []
    depth = max((len(lane) for lane in lanes.values()), default=0)
    for turn in range(depth):
        turns += [lane[turn] for lane in lanes.values() if turn < len(lane)]
    return turns
