"""Constraints and indexes, created idempotently at startup."""

from __future__ import annotations

from typing import LiteralString

from graph.driver import GraphStore

STATEMENTS: tuple[LiteralString, ...] = (
    "CREATE CONSTRAINT collection_id IF NOT EXISTS FOR (c:Collection) REQUIRE c.id IS UNIQUE",
    "CREATE INDEX collection_tenant IF NOT EXISTS FOR (c:Collection) ON (c.tenant_id)",
    "CREATE CONSTRAINT document_id IF NOT EXISTS FOR (d:Document) REQUIRE d.id IS UNIQUE",
    "CREATE INDEX document_collection IF NOT EXISTS FOR (d:Document) ON (d.collection_id)",
    "CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (c:Chunk) REQUIRE c.id IS UNIQUE",
    "CREATE INDEX chunk_document IF NOT EXISTS FOR (c:Chunk) ON (c.document_id)",
    "CREATE INDEX chunk_collection IF NOT EXISTS FOR (c:Chunk) ON (c.collection_id)",
    "CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE",
    "CREATE INDEX entity_collection IF NOT EXISTS FOR (e:Entity) ON (e.collection_id)",
    "CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (e:Entity) ON EACH [e.name, e.names]",
    "CREATE INDEX mentioned_document IF NOT EXISTS FOR ()-[r:MENTIONED_IN]-() ON (r.document_id)",
    "CREATE INDEX cooccurs_document IF NOT EXISTS FOR ()-[r:CO_OCCURS]-() ON (r.document_id)",
    "CREATE INDEX related_document IF NOT EXISTS FOR ()-[r:RELATED]-() ON (r.document_id)",
    "CREATE INDEX related_fact IF NOT EXISTS FOR ()-[r:RELATED]-() ON (r.fact_id)",
)


async def ensure_constraints(graph: GraphStore) -> None:
    for statement in STATEMENTS:
        await graph.write(statement)
