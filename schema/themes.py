"""GraphQL types for themes: communities of a collection's entity graph, with digests."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from app.knowledge.themes import ThemeRow, ThemeSet
from schema.entities import Entity
from schema.relationships import Span


@strawberry.type
class ThemeEntity:
    entity: Entity
    score: float = strawberry.field(description="PageRank in the collection's entity graph.")


@strawberry.type(description="A typed fact inside the theme and how many sentences state it.")
class ThemeFact:
    subject: Entity
    predicate: str
    object: Entity
    support: int


@strawberry.type(description="A main chunk mentioning many of the theme's top entities.")
class ThemeChunk:
    chunk_id: strawberry.ID
    document_id: strawberry.ID
    title: str
    span: Span
    excerpt: str
    entities: int = strawberry.field(description="How many top entities it mentions.")

    @classmethod
    def of(cls, row: dict[str, Any]) -> ThemeChunk:
        return cls(
            chunk_id=strawberry.ID(row["chunk_id"]),
            document_id=strawberry.ID(row["document_id"]),
            title=row["title"],
            span=Span(start=row["char_start"], end=row["char_end"]),
            excerpt=row["excerpt"],
            entities=row["entities"],
        )


@strawberry.type(description="A community of entities that belong together.")
class Theme:
    id: int
    label: str = strawberry.field(description="Its three top entities' names.")
    size: int = strawberry.field(description="Entities in the community.")
    entities: list[ThemeEntity]
    facts: list[ThemeFact]
    chunks: list[ThemeChunk]

    @classmethod
    def of(cls, row: ThemeRow) -> Theme:
        digest = row.digest
        return cls(
            id=row.ordinal,
            label=row.label,
            size=row.size,
            entities=[
                ThemeEntity(entity=Entity.of(e), score=e["score"]) for e in digest["entities"]
            ],
            facts=[
                ThemeFact(
                    subject=Entity.of(f["subject"]),
                    predicate=f["predicate"],
                    object=Entity.of(f["object"]),
                    support=f["support"],
                )
                for f in digest["facts"]
            ],
            chunks=[ThemeChunk.of(c) for c in digest["chunks"]],
        )


@strawberry.type
class Themes:
    themes: list[Theme]
    themes_updated_at: datetime | None = strawberry.field(
        description="When the themes were computed; null before the first computation."
    )
    stale: bool = strawberry.field(
        description="The graph changed since; new themes follow once ingestion settles."
    )

    @classmethod
    def of(cls, found: ThemeSet) -> Themes:
        return cls(
            themes=[Theme.of(row) for row in found.themes],
            themes_updated_at=found.updated_at,
            stale=found.stale,
        )
