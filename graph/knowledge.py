"""Entities, chunks, mentions, co-occurrences and facts of one document, written to Neo4j.

Every write is an idempotent UNWIND ... MERGE batch rebuilt from Postgres rows: replaying a
document's projection leaves the graph as it was.
"""

from __future__ import annotations

from typing import Any

from graph.driver import GraphStore
from store.knowledge import DocumentProjection


async def project_document(graph: GraphStore, p: DocumentProjection) -> None:
    doc = p.document_id
    await graph.write(
        "MATCH (d:Document {id: $doc}) WITH d UNWIND $chunks AS row"
        " MERGE (c:Chunk {id: row.id})"
        " SET c.document_id = d.id, c.collection_id = d.collection_id, c.tenant_id = d.tenant_id,"
        " c.ordinal = row.ordinal, c.char_start = row.char_start, c.char_end = row.char_end"
        " MERGE (c)-[:PART_OF]->(d)",
        doc=doc,
        chunks=p.chunks,
    )
    await graph.write(
        "MATCH (c:Chunk {document_id: $doc}) WHERE NOT c.id IN $ids DETACH DELETE c",
        doc=doc,
        ids=[c["id"] for c in p.chunks],
    )
    await upsert_entities(graph, p.entities)
    await _replace_edges(graph, p)
    await graph.write(
        "UNWIND $facts AS row MATCH (s:Entity {id: row.subject_id}), (o:Entity {id: row.object_id})"
        " MERGE (s)-[r:RELATED {fact_id: row.id}]->(o)"
        " SET r.predicate = row.predicate, r.document_id = row.document_id,"
        " r.chunk_id = row.chunk_id, r.span_start = row.span_start, r.span_end = row.span_end,"
        " r.sentence = row.sentence, r.valid_from = row.valid_from,"
        " r.valid_from_precision = row.valid_from_precision, r.valid_to = row.valid_to,"
        " r.recorded_at = row.recorded_at, r.invalidated_at = row.invalidated_at",
        facts=p.facts,
    )


async def upsert_entities(graph: GraphStore, entities: list[dict[str, Any]]) -> None:
    await graph.write(
        "UNWIND $rows AS row MERGE (e:Entity {id: row.id})"
        " SET e.name = row.name, e.type = row.type, e.aliases = row.aliases,"
        " e.names = reduce(s = row.name, a IN row.aliases | s + ' | ' + a),"
        " e.collection_id = row.collection_id, e.tenant_id = row.tenant_id,"
        " e.mention_count = row.mention_count",
        rows=entities,
    )


async def _replace_edges(graph: GraphStore, p: DocumentProjection) -> None:
    doc = p.document_id
    await graph.write("MATCH ()-[r:MENTIONED_IN]->() WHERE r.document_id = $doc DELETE r", doc=doc)
    await graph.write(
        "UNWIND $rows AS row MATCH (e:Entity {id: row.entity_id}), (c:Chunk {id: row.chunk_id})"
        " MERGE (e)-[r:MENTIONED_IN]->(c)"
        " SET r.count = row.count, r.spans = row.spans, r.document_id = $doc",
        rows=p.mentions,
        doc=doc,
    )
    await graph.write("MATCH ()-[r:CO_OCCURS]->() WHERE r.document_id = $doc DELETE r", doc=doc)
    await graph.write(
        "UNWIND $rows AS row MATCH (a:Entity {id: row.a}), (b:Entity {id: row.b})"
        " MERGE (a)-[r:CO_OCCURS {document_id: $doc}]->(b) SET r.weight = row.weight",
        rows=p.cooccurrences,
        doc=doc,
    )


async def remove_document(
    graph: GraphStore, document_id: str, orphans: list[str], touched: list[dict[str, Any]]
) -> None:
    """Take a deleted document out: its chunks, edges and facts, and entities left alone."""
    await graph.write("MATCH (c:Chunk {document_id: $doc}) DETACH DELETE c", doc=document_id)
    for rel in ("CO_OCCURS", "RELATED"):
        await graph.write(
            f"MATCH ()-[r:{rel}]->() WHERE r.document_id = $doc DELETE r",
            doc=document_id,
        )
    await graph.write("MATCH (e:Entity) WHERE e.id IN $ids DETACH DELETE e", ids=orphans)
    await upsert_entities(graph, touched)


async def clear_collection(graph: GraphStore, collection_id: str) -> None:
    """Everything derived for a collection, except its Collection node (for a rebuild)."""
    for label in ("Chunk", "Entity", "Document"):
        await graph.write(
            f"MATCH (n:{label} {{collection_id: $c}}) DETACH DELETE n",
            c=collection_id,
        )
