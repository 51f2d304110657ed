"""Document nodes, hung from their collection (records also carry the Record label)."""

from __future__ import annotations

from typing import Any

from graph.driver import GraphStore, Statement
from graph.knowledge import clear_collection

_DOCUMENTS = (
    "UNWIND $rows AS row"
    " MERGE (d:Document {id: row.document_id})"
    " SET d.tenant_id = row.tenant_id, d.collection_id = row.collection_id,"
    " d.external_id = row.external_id, d.title = row.title, d.source_type = row.source_type"
    " FOREACH (_ IN CASE WHEN row.source_type = 'RECORD' THEN [1] ELSE [] END | SET d:Record)"
    " WITH d, row MATCH (c:Collection {id: row.collection_id})"
    " MERGE (d)-[:IN_COLLECTION]->(c)"
)


def document_row(
    document_id: object,
    tenant_id: object,
    collection_id: object,
    external_id: str,
    title: str,
    source_type: str,
) -> dict[str, str]:
    """The parameters of one Document node, as outbox payloads and rebuilds carry them."""
    return {
        "document_id": str(document_id),
        "tenant_id": str(tenant_id),
        "collection_id": str(collection_id),
        "external_id": external_id,
        "title": title,
        "source_type": source_type,
    }


def documents_statement(rows: list[dict[str, Any]]) -> Statement:
    return (_DOCUMENTS, {"rows": rows})


async def delete_collections(graph: GraphStore, rows: list[dict[str, Any]]) -> None:
    for row in rows:
        await clear_collection(graph, row["collection_id"])
    await graph.write(
        "UNWIND $rows AS row MATCH (c:Collection {id: row.collection_id}) DETACH DELETE c",
        rows=rows,
    )
