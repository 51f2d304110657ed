"""Constraints and indexes, created idempotently at startup."""

from __future__ import annotations

from typing import LiteralString

from graph.driver import GraphStore

STATEMENTS: tuple[LiteralString, ...] = (
    "CREATE CONSTRAINT collection_id IF NOT EXISTS FOR (c:Collection) REQUIRE c.id IS UNIQUE",
    "CREATE INDEX collection_tenant IF NOT EXISTS FOR (c:Collection) ON (c.tenant_id)",
    "CREATE CONSTRAINT document_id IF NOT EXISTS FOR (d:Document) REQUIRE d.id IS UNIQUE",
    "CREATE INDEX document_collection IF NOT EXISTS FOR (d:Document) ON (d.collection_id)",
)


async def ensure_constraints(graph: GraphStore) -> None:
    for statement in STATEMENTS:
        await graph.write(statement)
