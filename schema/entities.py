"""GraphQL types for knowledge-graph entities."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from app.knowledge.entities import mention_cursor
from schema.context import Info
from schema.documents import Document
from schema.loaders import MentionKey, NeighbourKey
from schema.pagination import PageInfo


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

    @strawberry.field(description="Documents mentioning this entity, most mentions first.")
    async def documents(
        self, info: Info, first: int = 10, after: str | None = None
    ) -> EntityDocumentConnection:
        key = MentionKey(str(self.id), first, after)
        found, has_next = await info.context.loaders.mentions.load(key)
        edges = [
            EntityDocumentEdge(cursor=mention_cursor(n, row), mentions=n, node=Document.of(row))
            for n, row in found
        ]
        end = edges[-1].cursor if edges else None
        return EntityDocumentConnection(
            edges=edges, page_info=PageInfo(has_next_page=has_next, end_cursor=end)
        )

    @strawberry.field(
        description="Entities most strongly tied to this one; asOf/knownAt as in neighborhood."
    )
    async def neighbours(
        self,
        info: Info,
        first: int = 10,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
    ) -> list[Neighbour]:
        key = NeighbourKey(str(self.id), first, as_of, known_at)
        found = await info.context.loaders.neighbours.load(key)
        return [Neighbour(entity=Entity.of(row), weight=weight) for row, weight in found]


@strawberry.type
class EntityDocumentEdge:
    cursor: str
    mentions: int
    node: Document


@strawberry.type
class EntityDocumentConnection:
    edges: list[EntityDocumentEdge]
    page_info: PageInfo


@strawberry.type
class Neighbour:
    entity: Entity
    weight: float = strawberry.field(description="Co-occurrence weight plus typed facts.")


@strawberry.type
class EntityMatch:
    entity: Entity
    score: float
