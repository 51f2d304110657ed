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
        return (await self.neighbours_of(tenant, [entity_id], first, time))[entity_id]

    async def neighbours_of(
        self, tenant: Tenant, entity_ids: list[str], first: int, time: TimeFilter
    ) -> dict[str, list[tuple[dict[str, Any], float]]]:
        """Each entity's strongest neighbours, in two round trips for all of them: one
        expansion step (whose edge budget bounds the whole page) and one lookup."""
        check_range("first", first, 1, self.max_first)
        seen = time.seen_by(tenant.content_scopes)
        found = await step(self._graph, str(tenant.id), entity_ids, seen, [], first)
        ids = list({e for pairs in found.neighbours.values() for e, _ in pairs})
        rows = await lookups.entities_by_id(self._graph, str(tenant.id), ids, tenant.content_scopes)
        return {
            entity: [(rows[e], w) for e, w in found.neighbours.get(entity, []) if e in rows]
            for entity in entity_ids
        }

    async def documents(
        self, tenant: Tenant, entity_id: str, first: int, after: str | None
    ) -> tuple[list[tuple[int, DocumentRow]], bool]:
        """Documents mentioning the entity, most mentions first, and whether more follow."""
        return (await self.documents_of(tenant, [entity_id], first, after))[entity_id]

    async def documents_of(
        self, tenant: Tenant, entity_ids: list[str], first: int, after: str | None
    ) -> dict[str, tuple[list[tuple[int, DocumentRow]], bool]]:
        """Each entity's page of documents, in two statements for all of them."""
        check_range("first", first, 1, self.max_first)
        position = _mention_position(after)
        ids = {e: UUID(e) for e in entity_ids}
        async with self._pool.connection() as conn:
            found = await knowledge.documents_mentioning(
                conn, tenant, list(ids.values()), first + 1, position
            )
            wanted = list({d for pages in found.values() for _, d in pages})
            rows = await documents.by_ids(conn, tenant, wanted)
        pages = {e: found.get(i, []) for e, i in ids.items()}
        return {
            e: ([(n, rows[d]) for n, d in page[:first] if d in rows], len(page) > first)
            for e, page in pages.items()
        }


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
