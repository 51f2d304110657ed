"""Edge filters shared by every graph query: bi-temporal, and the calling key's content
scopes (an edge is seen only when its document carries one of them).

Valid time: facts keep ISO date prefixes ("2015", "2015-03", "2015-03-14"), which compare as
strings against a day ("2015-03-14"): a prefix counts from the start of its year or month.
System time: `recorded_at` and `invalidated_at` are instants. Co-occurrences carry no time
and pass every filter.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, LiteralString

_VALID = (
    "($valid_at IS NULL OR ((r.valid_from IS NULL OR r.valid_from <= $valid_at)"
    " AND (r.valid_to IS NULL OR $valid_at < r.valid_to)))"
)
_KNOWN = (
    "CASE WHEN $known_at IS NULL THEN r.invalidated_at IS NULL"
    " ELSE r.recorded_at <= $known_at"
    " AND (r.invalidated_at IS NULL OR r.invalidated_at > $known_at) END"
)
_FACT_IN_TIME: LiteralString = f"({_VALID} AND {_KNOWN})"
_PREDICATES = "(size($predicates) = 0 OR r.predicate IN $predicates)"


def carries_scope(edge: LiteralString) -> LiteralString:
    """A Cypher condition: `edge`'s document carries one of `$content_scopes`. Every edge
    carries its document's access scopes (graph/knowledge.py)."""
    return f"any(s IN coalesce({edge}.access_scopes, []) WHERE s IN $content_scopes)"


def seen_by_key(edge: LiteralString) -> LiteralString:
    """The same, or true when the key has no content scopes."""
    return f"(size($content_scopes) = 0 OR {carries_scope(edge)})"


SEEN_EDGE = carries_scope("r")


@dataclass(frozen=True)
class TimeFilter:
    """`valid_at`: the world as it was then; `known_at`: as the system knew it then (None is
    now). `everything` drops the filter entirely; benchmarks use it as the baseline."""

    valid_at: datetime | None = None
    known_at: datetime | None = None
    everything: bool = False
    content_scopes: tuple[str, ...] = ()  # the key's; empty: every edge of the tenant

    @classmethod
    def at(cls, valid_at: datetime | None, known_at: datetime | None) -> TimeFilter:
        """Times without a zone are UTC."""
        return cls(valid_at=_utc(valid_at), known_at=_utc(known_at))

    def seen_by(self, content_scopes: tuple[str, ...]) -> TimeFilter:
        return replace(self, content_scopes=content_scopes)

    def params(self) -> dict[str, Any]:
        day = self.valid_at.date().isoformat() if self.valid_at else None
        scopes = list(self.content_scopes)
        return {"valid_at": day, "known_at": self.known_at, "content_scopes": scopes}


def _utc(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


NOW = TimeFilter()
EVERYTHING = TimeFilter(everything=True)


def fact_condition(time: TimeFilter) -> LiteralString:
    """A Cypher condition on a RELATED edge `r`."""
    return _seen(time, "true" if time.everything else _FACT_IN_TIME)


def _seen(time: TimeFilter, condition: LiteralString) -> LiteralString:
    return f"({condition} AND {SEEN_EDGE})" if time.content_scopes else condition


def edge_condition(time: TimeFilter) -> LiteralString:
    """A Cypher condition on an edge `r` that is RELATED or CO_OCCURS, with `$predicates`:
    when predicates are named, only facts with one of them pass."""
    if time.everything:
        return _seen(time, "true")
    return _seen(
        time,
        f"((r:CO_OCCURS AND size($predicates) = 0)"
        f" OR (r:RELATED AND {_PREDICATES} AND {_FACT_IN_TIME}))",
    )
