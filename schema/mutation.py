"""Mutation root."""

from __future__ import annotations

import strawberry

from schema.context import Info
from schema.types import Collection


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Create a collection pinned to the default embedding profile.")
    async def create_collection(self, info: Info, name: str) -> Collection:
        tenant = await info.context.tenant()
        return Collection(row=await info.context.services.collections.create(tenant, name))
