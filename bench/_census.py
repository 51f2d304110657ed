"""What one collection holds, in Postgres and in Neo4j, counted the same way for any two
collections so that a benchmark can compare them (bench/crashes.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, LiteralString

import psycopg

from app.localdb.stack import Stack
from bench._sql import collection_id, count
from graph.driver import open_graph

# Each counts rows of the collection %s; "graphed" are documents projected at their version.
_POSTGRES: dict[str, LiteralString] = {
    "documents": "SELECT count(*) FROM documents WHERE collection_id = %s",
    "graphed": "SELECT count(*) FROM documents WHERE collection_id = %s"
    " AND status = 'GRAPHED' AND graphed_version = version",
    "sections": "SELECT count(*) FROM sections s JOIN documents d ON d.id = s.document_id"
    " WHERE d.collection_id = %s",
    "chunks": "SELECT count(*) FROM chunks WHERE collection_id = %s",
    "vectors": "SELECT count(*) FROM chunks WHERE collection_id = %s AND embedding IS NOT NULL",
    "postings": "SELECT count(*) FROM postings WHERE collection_id = %s",
    "stats: chunk_count": "SELECT chunk_count FROM collection_stats WHERE collection_id = %s",
    "stats: term_total": "SELECT term_total FROM collection_stats WHERE collection_id = %s",
    "entities": "SELECT count(*) FROM entities WHERE collection_id = %s",
    "entities without mentions": "SELECT count(*) FROM entities e WHERE e.collection_id = %s"
    " AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)",
    "mentions": "SELECT count(*) FROM mentions m JOIN entities e ON e.id = m.entity_id"
    " WHERE e.collection_id = %s",
    "co-occurrences": "SELECT count(*) FROM cooccurrences c JOIN entities e ON e.id = c.entity_a"
    " WHERE e.collection_id = %s",
    "facts": "SELECT count(*) FROM facts WHERE collection_id = %s AND invalidated_at IS NULL",
    "facts of no document": "SELECT count(*) FROM facts f WHERE f.collection_id = %s"
    " AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = f.document_id)",
    "fact vectors": "SELECT count(*) FROM facts WHERE collection_id = %s"
    " AND invalidated_at IS NULL AND embedding IS NOT NULL",
    "items pending": "SELECT count(*) FROM ingest_items i JOIN ingest_jobs j ON j.id = i.job_id"
    " WHERE j.collection_id = %s AND i.status = 'PENDING'",
    "items failed": "SELECT count(*) FROM ingest_items i JOIN ingest_jobs j ON j.id = i.job_id"
    " WHERE j.collection_id = %s AND i.status = 'FAILED'",
    "outbox pending": "SELECT count(*) FROM graph_outbox WHERE done_at IS NULL"
    " AND payload->>'collection_id' = %s::text",
}
_LABELS: tuple[LiteralString, ...] = ("Document", "Chunk", "Entity")
# Postgres's ids of what Neo4j holds as nodes of each label.
_IDS: dict[str, LiteralString] = {
    "Document": "SELECT id::text FROM documents WHERE collection_id = %s",
    "Chunk": "SELECT id::text FROM chunks WHERE collection_id = %s AND kind = 'main'",
    "Entity": "SELECT id::text FROM entities WHERE collection_id = %s",
}
_RELATIONSHIPS: LiteralString = (
    "MATCH (n {collection_id: $collection})-[r]->() WHERE n:Document OR n:Chunk OR n:Entity"
    " RETURN type(r) AS type, count(r) AS n"
)


@dataclass
class Census:
    postgres: dict[str, int]
    neo4j: dict[str, int] = field(default_factory=dict)
    # per label: Neo4j ids Postgres lacks (orphans), the reverse (missing), duplicated ids
    integrity: dict[str, dict[str, int]] = field(default_factory=dict)

    def done(self, documents: int) -> bool:
        counts = self.postgres
        finished = counts["items pending"] == 0 and counts["outbox pending"] == 0
        embedded = counts["fact vectors"] == counts["facts"]
        return finished and embedded and counts["graphed"] == documents


async def census(stack: Stack, collection: str, graph: bool = True) -> Census:
    async with await psycopg.AsyncConnection.connect(stack.endpoints.postgres_url) as conn:
        target = await collection_id(conn, collection)
        counts = {name: await count(conn, sql, target) for name, sql in _POSTGRES.items()}
        ids = {label: await _column(conn, sql, target) for label, sql in _IDS.items()}
    result = Census(counts)
    if graph:
        await _graph_census(stack, str(target), ids, result)
    return result


async def _column(conn: Any, sql: LiteralString, target: Any) -> list[str]:
    return [row[0] for row in await (await conn.execute(sql, (target,))).fetchall()]


async def _graph_census(
    stack: Stack, target: str, postgres_ids: dict[str, list[str]], result: Census
) -> None:
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 60)
    try:
        for label in _LABELS:
            rows = await graph.read(
                f"MATCH (n:{label} {{collection_id: $collection}}) RETURN n.id AS id",
                collection=target,
            )
            held = [row["id"] for row in rows]
            result.neo4j[f"neo4j {label}"] = len(held)
            result.integrity[label] = _compare(held, postgres_ids[label])
        for row in await graph.read(_RELATIONSHIPS, collection=target):
            result.neo4j[f"neo4j {row['type']}"] = row["n"]
    finally:
        await graph.close()


def _compare(held: list[str], stored: list[str]) -> dict[str, int]:
    in_graph, in_postgres = set(held), set(stored)
    return {
        "orphans": len(in_graph - in_postgres),
        "missing": len(in_postgres - in_graph),
        "duplicated": len(held) - len(in_graph),
    }
