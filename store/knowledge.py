"""The knowledge graph's rows in Postgres: written per document, read back for projection."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg.rows import class_row, dict_row
from psycopg.types.json import Jsonb

from ingest.knowledge import (
    DocumentGraph,
    DocumentProjection,
    FactRow,
    MainChunk,
    ResolvedGraph,
    resolve_onto,
)
from ingest.resolution import is_multiword
from ingest.titles import SUBJECT_WEIGHT, UNKNOWN_GROUP
from store import functional, mentions, themes
from store._copy import copy_rows
from store.arrays import uuid_array
from store.pool import Conn
from store.tenants import Tenant, visible


@dataclass(frozen=True)
class GraphDocument:
    id: UUID
    tenant_id: UUID
    collection_id: UUID
    version: int
    body: str
    title: str
    access_scopes: list[str]


async def load_document(
    conn: Conn, document_id: UUID
) -> tuple[GraphDocument, list[MainChunk]] | None:
    async with conn.cursor(row_factory=class_row(GraphDocument)) as cursor:
        await cursor.execute(
            "SELECT id, tenant_id, collection_id, version, body, title, access_scopes"
            " FROM documents"
            " WHERE id = %s",
            (document_id,),
        )
        doc = await cursor.fetchone()
    if doc is None:
        return None
    cursor2 = await conn.execute(
        "SELECT id, char_start, content FROM chunks WHERE document_id = %s AND kind = 'main'"
        " ORDER BY ordinal",
        (document_id,),
    )
    return doc, [MainChunk(*row) for row in await cursor2.fetchall()]


async def write(conn: Conn, doc: GraphDocument, graph: DocumentGraph) -> list[UUID]:
    """Replace the document's mentions and co-occurrences, record its facts for this version
    (closing older versions' facts), and return the ids of entities left with nothing."""
    before = await entity_ids_of(conn, doc.id)
    resolved = resolve_onto(graph, await _upsert_entities(conn, doc, graph))
    await conn.execute("DELETE FROM mentions WHERE document_id = %s", (doc.id,))
    await conn.execute("DELETE FROM cooccurrences WHERE document_id = %s", (doc.id,))
    await copy_rows(
        conn,
        "mentions",
        ("entity_id", "chunk_id", "document_id", "tenant_id", "count", "spans"),
        [
            (entity, chunk, doc.id, doc.tenant_id, len(spans), [x for s in spans for x in s])
            for (entity, chunk), spans in resolved.mentions.items()
        ],
    )
    await copy_rows(
        conn,
        "cooccurrences",
        ("document_id", "entity_a", "entity_b", "tenant_id", "weight"),
        [(doc.id, a, b, doc.tenant_id, w) for (a, b), w in resolved.cooccurrences.items()],
    )
    await _record_facts(conn, doc, resolved)
    await mentions.record_named(conn, doc.tenant_id, graph.named)
    await functional.close_chains(conn, await functional.chain_keys(conn, doc.id))
    await themes.mark_graph_changed(conn, doc.collection_id)
    await conn.execute(
        "UPDATE documents SET status = 'GRAPHED', graphed_version = %s, graph_notes = %s"
        " WHERE id = %s AND version = %s",
        (doc.version, Jsonb(graph.notes), doc.id, doc.version),
    )
    return await delete_orphans(conn, before)


async def entity_ids_of(conn: Conn, document_id: UUID) -> list[UUID]:
    cursor = await conn.execute(
        "SELECT entity_id FROM mentions WHERE document_id = %s UNION"
        " SELECT subject_id FROM facts WHERE document_id = %s UNION"
        " SELECT object_id FROM facts WHERE document_id = %s",
        (document_id, document_id, document_id),
    )
    return [row[0] for row in await cursor.fetchall()]


async def delete_facts(conn: Conn, document_id: UUID) -> None:
    await conn.execute("DELETE FROM facts WHERE document_id = %s", (document_id,))


async def delete_orphans(conn: Conn, candidates: list[UUID]) -> list[UUID]:
    """Entities among `candidates` that no chunk mentions and no fact names, deleted."""
    cursor = await conn.execute(
        "DELETE FROM entities e WHERE e.id = ANY(%s)"
        " AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)"
        " AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.subject_id = e.id OR f.object_id = e.id)"
        " RETURNING e.id",
        (candidates,),
    )
    return [row[0] for row in await cursor.fetchall()]


async def _upsert_entities(conn: Conn, doc: GraphDocument, graph: DocumentGraph) -> list[UUID]:
    if not graph.entities:
        return []
    groups = await _collection_groups(conn, doc.collection_id, graph)
    # Two of the document's entities may now share (key, type): insert each pair once.
    rows = {(e.key, g): e for e, g in reversed(list(zip(graph.entities, groups, strict=True)))}
    cursor = await conn.execute(
        "INSERT INTO entities (id, tenant_id, collection_id, key, type, name, aliases)"
        " SELECT i, %s, %s, k, t, n, a"
        " FROM unnest(%s::uuid[], %s::text[], %s::text[], %s::text[], %s::text[])"
        " AS u(i, k, t, n, a_joined), LATERAL (SELECT string_to_array(a_joined, chr(31)) AS a) x"
        " ON CONFLICT (collection_id, key, type) DO UPDATE SET aliases = ARRAY("
        "  SELECT DISTINCT x FROM unnest(entities.aliases || EXCLUDED.aliases"
        "  || ARRAY[EXCLUDED.name]) x WHERE x <> entities.name ORDER BY x)"
        " RETURNING key, type, id",
        (
            doc.tenant_id,
            doc.collection_id,
            [entity_id(doc.collection_id, key, group) for key, group in rows],
            [key for key, _ in rows],
            [group for _, group in rows],
            [e.name for e in rows.values()],
            [chr(31).join(e.aliases) for e in rows.values()],
        ),
    )
    by_key = {(key, kind): ident for key, kind, ident in await cursor.fetchall()}
    return [by_key[(e.key, group)] for e, group in zip(graph.entities, groups, strict=True)]


async def _collection_groups(conn: Conn, collection_id: UUID, graph: DocumentGraph) -> list[str]:
    """A multi-word name the collection already knows keeps the type it already has; so does
    a document's title subject, and a name that is already some page's title subject
    (see ingest/titles.py)."""
    cursor = await conn.execute(
        "SELECT key, type FROM entities WHERE collection_id = %s AND key = ANY(%s)"
        " ORDER BY key, id",
        (collection_id, [e.key for e in graph.entities]),
    )
    known: dict[str, list[str]] = {}
    for key, kind in await cursor.fetchall():
        known.setdefault(key, []).append(kind)
    return [_group(e.key, e.group, known.get(e.key, [])) for e in graph.entities]


def _group(key: str, group: str, known: list[str]) -> str:
    if not known or group in known:
        return group
    if is_multiword(key) or group == UNKNOWN_GROUP:
        return known[0]
    return UNKNOWN_GROUP if UNKNOWN_GROUP in known else group


async def _record_facts(conn: Conn, doc: GraphDocument, graph: ResolvedGraph[UUID]) -> None:
    await conn.execute(
        "UPDATE facts SET invalidated_at = now() WHERE document_id = %s"
        " AND document_version < %s AND invalidated_at IS NULL",
        (doc.id, doc.version),
    )
    cursor = await conn.execute(
        "SELECT 1 FROM facts WHERE document_id = %s AND document_version = %s LIMIT 1",
        (doc.id, doc.version),
    )
    if await cursor.fetchone() is not None:
        return  # a replay: this version's facts keep their original system time
    await copy_rows(conn, "facts", _FACT_INSERT_COLUMNS, _fact_rows(doc, graph))
    await conn.execute(
        "UPDATE facts old SET superseded_by = new.id FROM facts new"
        " WHERE old.document_id = %s AND old.document_version < %s AND old.superseded_by IS NULL"
        " AND new.document_id = old.document_id AND new.document_version = %s"
        " AND new.subject_id = old.subject_id AND new.predicate = old.predicate"
        " AND new.object_id = old.object_id",
        (doc.id, doc.version, doc.version),
    )


_FACT_INSERT_COLUMNS = (
    "id",
    "tenant_id",
    "collection_id",
    "document_id",
    "document_version",
    "chunk_id",
    "subject_id",
    "predicate",
    "object_id",
    "span_start",
    "span_end",
    "sentence",
    "valid_from",
    "valid_from_precision",
)


def entity_id(collection_id: UUID, key: str, kind: str) -> UUID:
    """The id an entity gets when it is first written: derived from what makes it unique, so
    a batch replayed after its Postgres transaction was lost (Neo4j having committed its
    own) writes the same ids, and Neo4j's MERGE lands on the nodes it already holds."""
    return uuid.uuid5(collection_id, f"entity\x1f{kind}\x1f{key}")


def _fact_rows(doc: GraphDocument, graph: ResolvedGraph[UUID]) -> list[tuple[Any, ...]]:
    return [
        _fact_row(doc, n, fact.subject, fact.row, fact.object) for n, fact in enumerate(graph.facts)
    ]


def _fact_row(doc: GraphDocument, n: int, subject: UUID, f: FactRow, obj: UUID) -> tuple[Any, ...]:
    return (
        # Derived, as entity ids are: a replayed version's facts keep their ids.
        uuid.uuid5(doc.id, f"fact\x1f{doc.version}\x1f{n}"),
        doc.tenant_id,
        doc.collection_id,
        doc.id,
        doc.version,
        f.chunk_id,
        subject,
        f.predicate,
        obj,
        f.span_start,
        f.span_end,
        f.sentence,
        f.valid_from.iso if f.valid_from else None,
        f.valid_from.precision if f.valid_from else None,
    )


async def projection(conn: Conn, doc: GraphDocument) -> DocumentProjection:
    """The document's rows, plus the current facts of any functional chain its facts are in
    (a new headquarters closes another document's fact, and Neo4j must hear of it)."""
    chains = await functional.chain_keys(conn, doc.id)
    return DocumentProjection(
        document_id=str(doc.id),
        chunks=await _dicts(
            conn,
            "SELECT id::text, ordinal, char_start, char_end FROM chunks"
            " WHERE document_id = %s AND kind = 'main'",
            doc.id,
        ),
        entities=await entity_rows(conn, await entity_ids_of(conn, doc.id)),
        mentions=[
            {**m, "weight": mention_weight(m["spans"]), "access_scopes": doc.access_scopes}
            for m in await _dicts(
                conn,
                "SELECT entity_id::text, chunk_id::text, count, spans"
                " FROM mentions WHERE document_id = %s",
                doc.id,
            )
        ],
        cooccurrences=await _dicts(
            conn,
            "SELECT c.entity_a::text AS a, c.entity_b::text AS b, c.weight, d.access_scopes"
            " FROM cooccurrences c JOIN documents d ON d.id = c.document_id"
            " WHERE c.document_id = %s",
            doc.id,
        ),
        facts=await fact_rows(conn, [doc.id], await functional.chain_fact_ids(conn, chains)),
    )


async def fact_rows(conn: Conn, documents: list[UUID], ids: list[UUID]) -> list[dict[str, Any]]:
    """Facts of these documents, and these facts."""
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(
            _FACT_COLUMNS + " WHERE f.document_id = ANY(%s) OR f.id = ANY(%s)", (documents, ids)
        )
        return await cursor.fetchall()


_FACT_COLUMNS = (
    "SELECT f.id::text, subject_id::text, object_id::text, predicate, chunk_id::text,"
    " document_id::text, span_start, span_end, sentence, valid_from, valid_from_precision,"
    " valid_to, recorded_at, invalidated_at, superseded_by::text,"
    " coalesce((SELECT d.access_scopes FROM documents d WHERE d.id = f.document_id), '{}')"
    " AS access_scopes FROM facts f"
)


async def entity_rows(conn: Conn, ids: list[UUID]) -> list[dict[str, Any]]:
    """Entities with their mention count across the whole collection."""
    return await _dicts(
        conn,
        "SELECT e.id::text, e.name, e.type, e.aliases, e.collection_id::text,"
        " e.tenant_id::text, coalesce((SELECT sum(m.count) FROM mentions m"
        " WHERE m.entity_id = e.id), 0)::int AS mention_count FROM entities e"
        " WHERE e.id = ANY(%s)",
        ids,
    )


async def _dicts(conn: Conn, sql: str, param: object) -> list[dict[str, Any]]:
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(sql, (param,))
        return await cursor.fetchall()


async def documents_mentioning(
    conn: Conn,
    tenant: Tenant,
    entity_ids: list[UUID],
    limit: int,
    after: tuple[int, UUID] | None,
) -> dict[UUID, list[tuple[int, UUID]]]:
    """For each entity, (mentions, document) for the documents the key may see that mention
    it, most mentions first, `limit` of them after the keyset position `after`: one statement
    for every entity of a page."""
    count, last = after if after is not None else (None, None)
    seen, seen_params = visible(tenant, "d")
    cursor = await conn.execute(
        "SELECT e.id, x.n, x.document_id FROM unnest(%s::uuid[]) AS e(id) CROSS JOIN LATERAL ("
        " SELECT sum(m.count)::int AS n, m.document_id FROM mentions m"
        " JOIN documents d ON d.id = m.document_id"
        f" WHERE m.tenant_id = %s AND m.entity_id = e.id{seen} GROUP BY m.document_id"
        " HAVING %s::int IS NULL OR (-sum(m.count), m.document_id) > (-%s::int, %s::uuid)"
        " ORDER BY n DESC, m.document_id LIMIT %s) AS x",
        (entity_ids, tenant.id, *seen_params, count, count, last, limit),
    )
    found: dict[UUID, list[tuple[int, UUID]]] = {}
    for entity_id, n, document_id in await cursor.fetchall():
        found.setdefault(entity_id, []).append((n, document_id))
    return found


def mention_weight(spans: list[int]) -> int:
    """Mentions in the text count 1 each; the title's (an empty span) counts SUBJECT_WEIGHT:
    a chunk is most strongly tied to the entity it is about."""
    pairs = zip(spans[0::2], spans[1::2], strict=True)
    return sum(SUBJECT_WEIGHT if start == end else 1 for start, end in pairs)


async def seen_entities(conn: Conn, tenant: Tenant, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The tenant's entities among `ids` that its key may see (a key with content scopes: one
    of their mentions is in a document it may see), with the fields Neo4j's entity nodes hold
    (see entity_rows)."""
    seen, scopes = visible(tenant, "d")
    shown = (
        " AND EXISTS (SELECT 1 FROM mentions m JOIN documents d ON d.id = m.document_id"
        f" WHERE m.entity_id = e.id{seen})"
        if seen
        else ""
    )
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(
            "SELECT e.id::text AS id, e.name, e.type, e.aliases,"
            " coalesce((SELECT sum(m.count) FROM mentions m WHERE m.entity_id = e.id), 0)::int"
            " AS mention_count, e.collection_id::text AS collection_id FROM entities e"
            f" WHERE e.id = ANY(%s::uuid[]) AND e.tenant_id = %s{shown}",
            (uuid_array(ids), tenant.id, *scopes),
        )
        return {row["id"]: row for row in await cursor.fetchall()}
