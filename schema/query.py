"""Query root."""

from __future__ import annotations

import strawberry

from app.health import check_backends
from schema.context import Info
from schema.types import BackendStatus, Collection, Health


@strawberry.type
class Query:
    @strawberry.field(description="The caller's collections, by name.")
    async def collections(self, info: Info) -> list[Collection]:
        tenant = await info.context.tenant()
        rows = await info.context.services.collections.list(tenant)
        return [Collection(row=row) for row in rows]

    @strawberry.field(description="One collection by name; NOT_FOUND when the caller has none.")
    async def collection(self, info: Info, name: str) -> Collection:
        tenant = await info.context.tenant()
        return Collection(row=await info.context.services.collections.get(tenant, name))

    @strawberry.field(description="Whether PostgreSQL and Neo4j answer, and how fast.")
    async def health(self, info: Info) -> Health:
        await info.context.tenant()
        backends = await check_backends(info.context.services)
        statuses = [BackendStatus.of(backend) for backend in backends]
        return Health(ok=all(b.up for b in backends), backends=statuses)
