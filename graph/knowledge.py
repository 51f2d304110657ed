"""Entities, chunks, mentions, co-occurrences and facts of documents, written to Neo4j.

Statements are idempotent UNWIND ... MERGE batches over many documents, rebuilt from Postgres
rows and run in one transaction: replaying a batch leaves the graph as it was.
"""

from __future__ import annotations

from typing import Any

from graph.driver import GraphStore, Statement
from ingest.knowledge import DocumentProjection

_CHUNKS = (
    "UNWIND $rows AS row MATCH (d:Document {id: row.document_id})"
    " MERGE (c:Chunk {id: row.id})"
    " SET c.document_id = d.id, c.collection_id = d.collection_id, c.tenant_id = d.tenant_id,"
    " c.ordinal = row.ordinal, c.char_start = row.char_start, c.char_end = row.char_end"
    " MERGE (c)-[:PART_OF]->(d)"
)
_STALE_CHUNKS = (
    "UNWIND $docs AS doc MATCH (c:Chunk {document_id: doc.id})"
    " WHERE NOT c.id IN doc.chunk_ids DETACH DELETE c"
)
_ENTITIES = (
    "UNWIND $rows AS row MERGE (e:Entity {id: row.id})"
    " SET e.name = row.name, e.type = row.type, e.aliases = row.aliases,"
    " e.names = reduce(s = row.name, a IN row.aliases | s + ' | ' + a),"
    " e.collection_id = row.collection_id, e.tenant_id = row.tenant_id,"
    " e.mention_count = row.mention_count"
)
_DROP_MENTIONS = (
    "UNWIND $ids AS doc MATCH ()-[r:MENTIONED_IN]->() WHERE r.document_id = doc DELETE r"
)
_MENTIONS = (
    "UNWIND $rows AS row MATCH (e:Entity {id: row.entity_id}), (c:Chunk {id: row.chunk_id})"
    " MERGE (e)-[r:MENTIONED_IN]->(c)"
    " SET r.count = row.count, r.weight = row.weight, r.spans = row.spans,"
    " r.document_id = row.document_id, r.access_scopes = row.access_scopes"
)
_DROP_COOCCURS = "UNWIND $ids AS doc MATCH ()-[r:CO_OCCURS]->() WHERE r.document_id = doc DELETE r"
_COOCCURS = (
    "UNWIND $rows AS row MATCH (a:Entity {id: row.a}), (b:Entity {id: row.b})"
    " MERGE (a)-[r:CO_OCCURS {document_id: row.document_id}]->(b) SET r.weight = row.weight,"
    " r.access_scopes = row.access_scopes"
)
_FACTS = (
    "UNWIND $rows AS row MATCH (s:Entity {id: row.subject_id}), (o:Entity {id: row.object_id})"
    " MERGE (s)-[r:RELATED {fact_id: row.id}]->(o)"
    " SET r.predicate = row.predicate, r.document_id = row.document_id,"
    " r.chunk_id = row.chunk_id, r.span_start = row.span_start, r.span_end = row.span_end,"
    " r.sentence = row.sentence, r.valid_from = row.valid_from,"
    " r.valid_from_precision = row.valid_from_precision, r.valid_to = row.valid_to,"
    " r.recorded_at = row.recorded_at, r.invalidated_at = row.invalidated_at,"
    " r.superseded_by = row.superseded_by, r.access_scopes = row.access_scopes"
)
_DROP_ENTITIES = "MATCH (e:Entity) WHERE e.id IN $ids DETACH DELETE e"


def projection_statements(projections: list[DocumentProjection]) -> list[Statement]:
    ids = [p.document_id for p in projections]
    return [
        (
            _CHUNKS,
            {"rows": [{**c, "document_id": p.document_id} for p in projections for c in p.chunks]},
        ),
        (
            _STALE_CHUNKS,
            {
                "docs": [
                    {"id": p.document_id, "chunk_ids": [c["id"] for c in p.chunks]}
                    for p in projections
                ]
            },
        ),
        (_ENTITIES, {"rows": _unique_entities(projections)}),
        (_DROP_MENTIONS, {"ids": ids}),
        (
            _MENTIONS,
            {
                "rows": [
                    {**m, "document_id": p.document_id} for p in projections for m in p.mentions
                ]
            },
        ),
        (_DROP_COOCCURS, {"ids": ids}),
        (
            _COOCCURS,
            {
                "rows": [
                    {**c, "document_id": p.document_id}
                    for p in projections
                    for c in p.cooccurrences
                ]
            },
        ),
        facts_statement([f for p in projections for f in p.facts]),
    ]


def facts_statement(rows: list[dict[str, Any]]) -> Statement:
    return (_FACTS, {"rows": rows})


def drop_entities_statement(ids: list[str]) -> Statement:
    return (_DROP_ENTITIES, {"ids": ids})


def entities_statement(entities: list[dict[str, Any]]) -> Statement:
    return (_ENTITIES, {"rows": entities})


def removal_statements(
    document_id: str, orphans: list[str], touched: list[dict[str, Any]]
) -> list[Statement]:
    """Take a deleted document out: its chunks, edges and facts, and entities left alone."""
    return [
        ("MATCH (c:Chunk {document_id: $doc}) DETACH DELETE c", {"doc": document_id}),
        ("MATCH ()-[r:CO_OCCURS]->() WHERE r.document_id = $doc DELETE r", {"doc": document_id}),
        ("MATCH ()-[r:RELATED]->() WHERE r.document_id = $doc DELETE r", {"doc": document_id}),
        ("MATCH (d:Document {id: $doc}) DETACH DELETE d", {"doc": document_id}),
        drop_entities_statement(orphans),
        entities_statement(touched),
    ]


async def clear_collection(graph: GraphStore, collection_id: str) -> None:
    """Everything derived for a collection, except its Collection node (for a rebuild)."""
    for label in ("Chunk", "Entity", "Document"):
        await graph.write(
            f"MATCH (n:{label} {{collection_id: $c}}) DETACH DELETE n", c=collection_id
        )


def _unique_entities(projections: list[DocumentProjection]) -> list[dict[str, Any]]:
    """Each entity once; the latest row wins (its mention count is the freshest)."""
    return list({e["id"]: e for p in projections for e in p.entities}.values())
