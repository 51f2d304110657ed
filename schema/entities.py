"""GraphQL types for knowledge-graph entities."""

from __future__ import annotations

from typing import Any

import strawberry

from schema.context import Info


@strawberry.type(description="A person, organisation, place or other named thing.")
class Entity:
    id: strawberry.ID
    name: str
    type: str
    aliases: list[str]
    mention_count: int

    @classmethod
    def of(cls, row: dict[str, Any]) -> Entity:
        return cls(
            id=strawberry.ID(row["id"]),
            name=row["name"],
            type=row["type"],
            aliases=list(row["aliases"] or []),
            mention_count=row["mention_count"] or 0,
        )

    @strawberry.field(description="Entities most strongly tied to this one.")
    async def neighbours(self, info: Info, first: int = 10) -> list[Neighbour]:
        tenant = await info.context.tenant()
        rows = await info.context.services.entities.neighbours(tenant, str(self.id), first)
        return [Neighbour(entity=Entity.of(row), weight=float(row["weight"])) for row in rows]


@strawberry.type
class Neighbour:
    entity: Entity
    weight: float = strawberry.field(description="Co-occurrence weight plus typed facts.")


@strawberry.type
class EntityMatch:
    entity: Entity
    score: float
