"""Document nodes, hung from their collection. Entities and facts arrive with the graph issue."""

from __future__ import annotations

from typing import Any

from graph.driver import GraphStore
from graph.knowledge import clear_collection


async def upsert_documents(graph: GraphStore, rows: list[dict[str, Any]]) -> None:
    await graph.write(
        "UNWIND $rows AS row"
        " MERGE (d:Document {id: row.document_id})"
        " SET d.tenant_id = row.tenant_id, d.collection_id = row.collection_id,"
        " d.external_id = row.external_id, d.title = row.title, d.source_type = row.source_type"
        " FOREACH (_ IN CASE WHEN row.source_type = 'RECORD' THEN [1] ELSE [] END | SET d:Record)"
        " WITH d, row MATCH (c:Collection {id: row.collection_id})"
        " MERGE (d)-[:IN_COLLECTION]->(c)",
        rows=rows,
    )


async def delete_collections(graph: GraphStore, rows: list[dict[str, Any]]) -> None:
    for row in rows:
        await clear_collection(graph, row["collection_id"])
    await graph.write(
        "UNWIND $rows AS row MATCH (c:Collection {id: row.collection_id}) DETACH DELETE c",
        rows=rows,
    )
