"""The facts about one entity in valid-time order, invalidated ones included and flagged.

Valid times are ISO prefixes, so a range bound is cut to each fact's precision: a fact
dated "2015" falls within a range starting 2015-06-01.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from graph.driver import GraphStore
from graph.edges import Edge
from graph.relationships import fact_edge
from graph.temporal import seen_by_key

_TIMELINE = (
    "MATCH (e:Entity {id: $id, tenant_id: $tenant})-[r:RELATED]-(:Entity)"
    " WHERE ($known_at IS NULL OR r.recorded_at <= $known_at)"
    " AND ($from IS NULL OR (r.valid_from IS NOT NULL"
    " AND r.valid_from >= left($from, size(r.valid_from))))"
    " AND ($to IS NULL OR (r.valid_from IS NOT NULL AND r.valid_from < $to))"
    f" AND {seen_by_key('r')}"
    " RETURN startNode(r).id AS source, endNode(r).id AS target, properties(r) AS props"
    " ORDER BY r.valid_from IS NULL, r.valid_from, r.recorded_at, r.fact_id LIMIT $limit"
)


async def timeline(
    graph: GraphStore,
    tenant_id: str,
    entity_id: str,
    start: date | None,
    end: date | None,
    known_at: datetime | None,
    limit: int,
    content_scopes: tuple[str, ...] = (),
) -> list[Edge]:
    """Dated facts first, by `validFrom`; undated ones last (only when no range is given)."""
    records: list[dict[str, Any]] = await graph.read(
        _TIMELINE,
        id=entity_id,
        tenant=tenant_id,
        known_at=known_at,
        limit=limit,
        content_scopes=list(content_scopes),
        **{"from": start.isoformat() if start else None, "to": end.isoformat() if end else None},
    )
    return [fact_edge(r["source"], r["target"], r["props"]) for r in records]
