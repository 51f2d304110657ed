"""GraphQL object types. Thin: each wraps a service-layer value."""

from __future__ import annotations

from datetime import datetime

import strawberry

from app.collections.service import Collection as CollectionRow
from app.collections.service import GraphCollection
from app.health import BackendHealth
from schema.context import Info


@strawberry.type(
    description="An embedding model and its vector size, fixed for a collection's life."
)
class EmbeddingProfile:
    model: str
    dimension: int


@strawberry.type(description="The collection as the knowledge graph in Neo4j holds it.")
class GraphProjection:
    name: str
    projected_at: datetime

    @classmethod
    def of(cls, node: GraphCollection) -> GraphProjection:
        return cls(name=node.name, projected_at=node.projected_at)


@strawberry.type(description="A named set of documents and records, owned by one tenant.")
class Collection:
    row: strawberry.Private[CollectionRow]

    @strawberry.field
    def id(self) -> strawberry.ID:
        return strawberry.ID(str(self.row.id))

    @strawberry.field
    def name(self) -> str:
        return self.row.name

    @strawberry.field
    def created_at(self) -> datetime:
        return self.row.created_at

    @strawberry.field
    def embedding_profile(self) -> EmbeddingProfile:
        return EmbeddingProfile(model=self.row.embedding_model, dimension=self.row.embedding_dim)

    @strawberry.field(description="REMOVE, CAVEAT or ABSTAIN: see setAnswerPolicy.")
    def answer_policy(self) -> str:
        return self.row.answer_policy

    @strawberry.field(description="Read from Neo4j; null until the graph has caught up.")
    async def graph(self, info: Info) -> GraphProjection | None:
        node = await info.context.services.collections.graph_view(self.row)
        return None if node is None else GraphProjection.of(node)


@strawberry.type
class BackendStatus:
    name: str
    up: bool
    latency_ms: float | None
    error: str | None

    @classmethod
    def of(cls, health: BackendHealth) -> BackendStatus:
        return cls(name=health.name, up=health.up, latency_ms=health.latency_ms, error=health.error)


@strawberry.type
class Health:
    ok: bool
    backends: list[BackendStatus]
