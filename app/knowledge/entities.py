"""Entities of the knowledge graph, looked up within one tenant."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from app import cursors
from app.collections.service import Collections
from app.errors import ErrorCode, TrellisError
from app.limits import check_range
from graph import entities as lookups
from graph.driver import GraphStore
from graph.expansion import step
from graph.temporal import TimeFilter
from store import documents, knowledge
from store.documents import DocumentRow
from store.pool import Pool
from store.tenants import Tenant

MAX_QUERY = 200


class Entities:
    def __init__(
        self, pool: Pool, graph: GraphStore, collections: Collections, max_first: int
    ) -> None:
        self._pool = pool
        self._graph = graph
        self._collections = collections
        self.max_first = max_first

    async def get(self, tenant: Tenant, entity_id: str) -> dict[str, Any]:
        """The entity; another tenant's is NOT_FOUND too, so nothing leaks."""
        found = await lookups.get_entity(
            self._graph, str(tenant.id), entity_id, tenant.content_scopes
        )
        if found is None:
            raise TrellisError(ErrorCode.NOT_FOUND, f"no entity {entity_id}")
        return found

    async def search(
        self, tenant: Tenant, collection: str, query: str, types: list[str], first: int
    ) -> list[dict[str, Any]]:
        check_range("first", first, 1, self.max_first)
        if not query.strip() or len(query) > MAX_QUERY:
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT,
                f"query must be 1 to {MAX_QUERY} characters",
                field="query",
            )
        target = await self._collections.get(tenant, collection)
        return await lookups.search_entities(
            self._graph, str(tenant.id), str(target.id), query, types, first, tenant.content_scopes
        )

    async def neighbours(
        self, tenant: Tenant, entity_id: str, first: int, time: TimeFilter
    ) -> list[tuple[dict[str, Any], float]]:
        """The strongest neighbours (co-occurrence weight plus facts), with that weight."""
        check_range("first", first, 1, self.max_first)
        seen = time.seen_by(tenant.content_scopes)
        found = await step(self._graph, str(tenant.id), [entity_id], seen, [], first)
        pairs = found.neighbours.get(entity_id, [])
        ids = [e for e, _ in pairs]
        rows = await lookups.entities_by_id(self._graph, str(tenant.id), ids, tenant.content_scopes)
        return [(rows[e], weight) for e, weight in pairs if e in rows]

    async def documents(
        self, tenant: Tenant, entity_id: str, first: int, after: str | None
    ) -> tuple[list[tuple[int, DocumentRow]], bool]:
        """Documents mentioning the entity, most mentions first, and whether more follow."""
        check_range("first", first, 1, self.max_first)
        position = _mention_position(after)
        async with self._pool.connection() as conn:
            found = await knowledge.documents_mentioning(
                conn, tenant, UUID(entity_id), first + 1, position
            )
            rows = await documents.by_ids(conn, tenant, [d for _, d in found])
        pairs = [(n, rows[d]) for n, d in found[:first] if d in rows]
        return pairs, len(found) > first


def mention_cursor(mentions: int, row: DocumentRow) -> str:
    return cursors.encode(mentions, row.id)


def _mention_position(after: str | None) -> tuple[int, UUID] | None:
    if after is None:
        return None
    mentions, document_id = cursors.decode(after, 2)
    try:
        return int(mentions), UUID(document_id)
    except ValueError:
        raise cursors.invalid() from None
