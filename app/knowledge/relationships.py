"""How entities are connected: neighbourhoods, paths and timelines, each edge with evidence.

`RelationshipPath` is the one path type of the API; search hits found through the graph
carry it too.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date, datetime

from app.errors import ErrorCode, TrellisError
from app.knowledge.entities import Entities
from app.limits import check_range
from graph import entities as lookups
from graph.driver import GraphStore
from graph.edges import Edge as Edge
from graph.edges import EntityRow, path_of
from graph.edges import Evidence as Evidence
from graph.edges import RelationshipPath as RelationshipPath
from graph.neighborhood import neighborhood
from graph.paths import find_paths
from graph.relationships import edges_between
from graph.temporal import TimeFilter as TimeFilter
from graph.timeline import timeline
from store.tenants import Tenant

MAX_HOPS = 3
MAX_PATH_HOPS = 6
MAX_PREDICATES = 50


@dataclass(frozen=True)
class NeighborhoodView:
    center: EntityRow
    nodes: list[tuple[EntityRow, int]]  # entity, hops from the center
    edges: list[Edge]
    truncated: bool


@dataclass(frozen=True)
class PathsView:
    paths: list[RelationshipPath]
    truncated: bool


@dataclass(frozen=True)
class TimelineView:
    entity: EntityRow
    facts: list[Edge]
    entities: dict[str, EntityRow] = field(default_factory=dict)


class Relationships:
    def __init__(self, graph: GraphStore, entities: Entities) -> None:
        self._graph = graph
        self._entities = entities

    async def neighborhood(
        self,
        tenant: Tenant,
        entity_id: str,
        hops: int,
        time: TimeFilter,
        predicates: list[str],
        first: int,
    ) -> NeighborhoodView:
        check_range("hops", hops, 1, MAX_HOPS)
        self._check_first(first)
        check_range("predicates", len(predicates), 0, MAX_PREDICATES)
        center = await self._entities.get(tenant, entity_id)
        seen = time.seen_by(tenant.content_scopes)
        found = await neighborhood(
            self._graph, str(tenant.id), center["id"], hops, seen, predicates, first
        )
        rows = await self._rows(tenant, list(found.hop_of))
        nodes = [(rows[e], hop) for e, hop in found.hop_of.items() if e in rows and hop > 0]
        return NeighborhoodView(center, nodes, found.edges, found.truncated)

    async def paths(
        self,
        tenant: Tenant,
        source_id: str,
        target_id: str,
        max_hops: int,
        time: TimeFilter,
        first: int,
    ) -> PathsView:
        check_range("maxHops", max_hops, 1, MAX_PATH_HOPS)
        self._check_first(first)
        source = await self._entities.get(tenant, source_id)
        target = await self._entities.get(tenant, target_id)
        if source["id"] == target["id"]:
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT, "from and to are the same entity", field="to"
            )
        seen = time.seen_by(tenant.content_scopes)
        found = await find_paths(
            self._graph, str(tenant.id), source["id"], target["id"], max_hops, seen, first
        )
        paths = await self.materialise(tenant, found.paths, time)
        return PathsView(paths, found.truncated)

    async def materialise(
        self, tenant: Tenant, paths: list[list[str]], time: TimeFilter
    ) -> list[RelationshipPath]:
        """Entity-id paths as steps carrying each edge and its evidence."""
        pairs = list({(a, b): None for p in paths for a, b in itertools.pairwise(p)})
        edges = await edges_between(
            self._graph, str(tenant.id), pairs, time.seen_by(tenant.content_scopes)
        )
        rows = await self._rows(tenant, list({e for p in paths for e in p}))
        return [built for p in paths if (built := path_of(p, edges, rows)) is not None]

    async def timeline(
        self,
        tenant: Tenant,
        entity_id: str,
        start: date | None,
        end: date | None,
        known_at: datetime | None,
        first: int,
    ) -> TimelineView:
        self._check_first(first)
        if start is not None and end is not None and end <= start:
            raise TrellisError(ErrorCode.BAD_USER_INPUT, "to must be after from", field="to")
        entity = await self._entities.get(tenant, entity_id)
        facts = await timeline(
            self._graph,
            str(tenant.id),
            entity["id"],
            start,
            end,
            known_at,
            first,
            tenant.content_scopes,
        )
        ids = list({e for f in facts for e in (f.source, f.target)})
        return TimelineView(entity, facts, await self._rows(tenant, ids))

    def _check_first(self, first: int) -> None:
        check_range("first", first, 1, self._entities.max_first)

    async def _rows(self, tenant: Tenant, ids: list[str]) -> dict[str, EntityRow]:
        return await lookups.entities_by_id(self._graph, str(tenant.id), ids, tenant.content_scopes)
