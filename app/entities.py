"""Entities of the knowledge graph, looked up within one tenant."""

from __future__ import annotations

from typing import Any

from app.collections import Collections
from app.errors import ErrorCode, TrellisError
from graph import entities as lookups
from graph.driver import GraphStore
from store.tenants import Tenant

MAX_FIRST = 100
MAX_QUERY = 200


class Entities:
    def __init__(self, graph: GraphStore, collections: Collections) -> None:
        self._graph = graph
        self._collections = collections

    async def get(self, tenant: Tenant, entity_id: str) -> dict[str, Any]:
        """The entity; another tenant's is NOT_FOUND too, so nothing leaks."""
        found = await lookups.get_entity(self._graph, str(tenant.id), entity_id)
        if found is None:
            raise TrellisError(ErrorCode.NOT_FOUND, f"no entity {entity_id}")
        return found

    async def search(
        self, tenant: Tenant, collection: str, query: str, types: list[str], first: int
    ) -> list[dict[str, Any]]:
        check_first(first)
        if not query.strip() or len(query) > MAX_QUERY:
            raise TrellisError(
                ErrorCode.BAD_INPUT, f"query must be 1 to {MAX_QUERY} characters", field="query"
            )
        target = await self._collections.get(tenant, collection)
        return await lookups.search_entities(
            self._graph, str(tenant.id), str(target.id), query, types, first
        )

    async def neighbours(self, tenant: Tenant, entity_id: str, first: int) -> list[dict[str, Any]]:
        check_first(first)
        return await lookups.neighbours(self._graph, str(tenant.id), entity_id, first)


def check_first(first: int) -> None:
    if not 1 <= first <= MAX_FIRST:
        raise TrellisError(ErrorCode.BAD_INPUT, f"first must be 1 to {MAX_FIRST}", field="first")
