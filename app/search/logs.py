"""The search log: what was asked of a collection, how fast, and whether it degraded."""

from __future__ import annotations

from datetime import datetime

from app.collections.service import Collections
from app.limits import check_range
from app.tenancy.visibility import whole_tenant_only
from store import search_logs
from store.pool import Pool
from store.search_logs import SearchLog as SearchLog
from store.tenants import Tenant


class SearchLogs:
    def __init__(self, pool: Pool, collections: Collections, max_first: int) -> None:
        self._pool = pool
        self._collections = collections
        self._max_first = max_first

    async def recent(
        self,
        tenant: Tenant,
        collection: str,
        start: datetime | None,
        end: datetime | None,
        first: int,
    ) -> list[SearchLog]:
        whole_tenant_only(tenant, "search logs")
        check_range("first", first, 1, self._max_first)
        target = await self._collections.get(tenant, collection)
        async with self._pool.connection() as conn:
            return await search_logs.recent(conn, tenant.id, target.id, start, end, first)
