"""What a search asks for, once validated: legs, filters, graph options, limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any


class Mode(StrEnum):
    HYBRID = "HYBRID"
    KEYWORD = "KEYWORD"
    SEMANTIC = "SEMANTIC"
    GRAPH = "GRAPH"


class Leg(StrEnum):
    SEMANTIC = "SEMANTIC"
    KEYWORD = "KEYWORD"
    SECTION = "SECTION"
    GRAPH = "GRAPH"


class ResultType(StrEnum):
    PASSAGE = "PASSAGE"
    FILE = "FILE"


SINGLE_LEG = {Mode.KEYWORD: Leg.KEYWORD, Mode.SEMANTIC: Leg.SEMANTIC, Mode.GRAPH: Leg.GRAPH}


@dataclass(frozen=True)
class MetadataFilter:
    """`key` equals `equals`, or lies within [`at_least`, `at_most`] (numbers or strings)."""

    key: str
    equals: Any = None
    at_least: Any = None
    at_most: Any = None


@dataclass(frozen=True)
class Filters:
    metadata: tuple[MetadataFilter, ...] = ()
    document_ids: tuple[str, ...] = ()
    created_from: datetime | None = None
    created_to: datetime | None = None


@dataclass(frozen=True)
class SearchRequest:
    collections: tuple[str, ...]
    query: str
    mode: Mode = Mode.HYBRID
    top_k: int = 10
    result_type: ResultType = ResultType.PASSAGE
    filters: Filters = field(default_factory=Filters)
    min_score: float | None = None
    fail_closed: bool = False
    hops: int = 2
    as_of: datetime | None = None
    second_round: bool | None = None  # keyword searches for the first round's bridges;
    # None runs them in HYBRID mode, the only one they serve
    match_facts: bool = False  # the walk also starts from the entities of facts it resembles
    legs: tuple[Leg, ...] = tuple(Leg)

    def runs_second_round(self) -> bool:
        return self.mode is Mode.HYBRID if self.second_round is None else self.second_round

    def active_legs(self) -> tuple[Leg, ...]:
        if self.mode in SINGLE_LEG:
            return (SINGLE_LEG[self.mode],)
        return self.legs
