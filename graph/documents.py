"""Document nodes, hung from their collection. Entities and facts arrive with the graph issue."""

from __future__ import annotations

from typing import Any

from graph.driver import GraphStore


async def upsert_documents(graph: GraphStore, rows: list[dict[str, Any]]) -> None:
    await graph.write(
        "UNWIND $rows AS row"
        " MERGE (d:Document {id: row.document_id})"
        " SET d.tenant_id = row.tenant_id, d.collection_id = row.collection_id,"
        " d.external_id = row.external_id, d.title = row.title, d.source_type = row.source_type"
        " WITH d, row MATCH (c:Collection {id: row.collection_id})"
        " MERGE (d)-[:IN_COLLECTION]->(c)",
        rows=rows,
    )


async def delete_documents(graph: GraphStore, rows: list[dict[str, Any]]) -> None:
    await graph.write(
        "UNWIND $rows AS row MATCH (d:Document {id: row.document_id}) DETACH DELETE d", rows=rows
    )


async def delete_collections(graph: GraphStore, rows: list[dict[str, Any]]) -> None:
    await graph.write(
        "UNWIND $rows AS row"
        " OPTIONAL MATCH (d:Document {collection_id: row.collection_id}) DETACH DELETE d"
        " WITH DISTINCT row MATCH (c:Collection {id: row.collection_id}) DETACH DELETE c",
        rows=rows,
    )
