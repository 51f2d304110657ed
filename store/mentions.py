"""Where entities are mentioned: the text of chunks and the spans of mentions in them, and
every entity the NER model found in a chunk (dates and numbers too), kept for answers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from uuid import UUID

from psycopg.types.json import Jsonb

from ingest.extraction import Named
from retrieval.mention_graph import MentionGraph
from store import bm25
from store.arrays import text_array, uuid_array
from store.pool import Conn
from store.tenants import Tenant, visible

# Past this many documents a name is a hub; counting further would cost the search its time.
MOST_DOCUMENTS = 1000


async def fewest_documents(conn: Conn, tenant: Tenant, seeds: Mapping[str, str]) -> int | None:
    """The fewest documents the key may see that mention any one name (counted up to
    MOST_DOCUMENTS); None for no names. `seeds` maps entity ids to the name key each was
    linked by. A name counts the documents of every entity it linked: NER types one name
    differently from passage to passage ("Apollo" an organisation in 33 sections of an
    article and a work in one), and the rarer type says nothing about how specific the
    name is."""
    if not seeds:
        return None
    seen, scopes = visible(tenant, "d")
    shown = f" AND EXISTS (SELECT 1 FROM documents d WHERE d.id = m.document_id{seen})"
    cursor = await conn.execute(
        "WITH e AS (SELECT * FROM unnest(%s::text[], %s::uuid[]) AS e(key, id))"
        " SELECT min(n) FROM (SELECT DISTINCT key FROM e) s CROSS JOIN LATERAL"
        " (SELECT count(DISTINCT f.document_id) AS n FROM (SELECT m.document_id FROM e"
        "  JOIN mentions m ON m.entity_id = e.id"
        f"  WHERE e.key = s.key AND m.tenant_id = %s{shown if seen else ''} LIMIT %s) f) c",
        (text_array(list(seeds.values())), uuid_array(list(seeds)), tenant.id, *scopes,
         MOST_DOCUMENTS),
    )  # fmt: skip
    row = await cursor.fetchone()
    return None if row is None or row[0] is None else int(row[0])


@dataclass
class ChunkMentions:
    text: str
    spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # entity id -> spans


async def in_chunks(conn: Conn, tenant_id: UUID, chunk_ids: list[str]) -> dict[str, ChunkMentions]:
    """Chunk id -> its text and its mentions' spans in it (a title mention's is empty)."""
    cursor = await conn.execute(
        "SELECT c.id::text, c.content, c.char_start, m.entity_id::text, m.spans FROM chunks c"
        " JOIN mentions m ON m.chunk_id = c.id"
        " WHERE c.tenant_id = %s AND c.id = ANY(%s::uuid[]) AND m.tenant_id = %s",
        (tenant_id, uuid_array(chunk_ids), tenant_id),
    )
    found: dict[str, ChunkMentions] = {}
    for chunk, text, offset, entity, spans in await cursor.fetchall():
        # Spans are in document offsets; the chunk's text starts at `offset`.
        pairs = [(s - offset, e - offset) for s, e in zip(spans[0::2], spans[1::2], strict=True)]
        found.setdefault(chunk, ChunkMentions(text)).spans[entity] = pairs
    return found


async def record_named(conn: Conn, tenant_id: UUID, named: dict[UUID, list[Named]]) -> None:
    """Keep each chunk's entities, as [start, end, label] in document offsets."""
    if not named:
        return
    await conn.execute(
        "UPDATE chunks c SET named = v.named"
        " FROM unnest(%s::uuid[], %s::jsonb[]) AS v (id, named)"
        " WHERE c.id = v.id AND c.tenant_id = %s",
        (
            list(named),
            [Jsonb([[n.start, n.end, n.label] for n in found]) for found in named.values()],
            tenant_id,
        ),
    )


@dataclass(frozen=True)
class UnreadChunk:
    id: UUID
    tenant_id: UUID
    start: int  # the chunk's first character in its document
    text: str


async def unread_chunks(
    conn: Conn, collections: list[UUID] | None, after: UUID | None, limit: int
) -> list[UnreadChunk]:
    """Main chunks of graphed documents whose entities are not kept, in id order after
    `after`: chunks graphed before entities were kept (of these collections, or all)."""
    only = " AND c.collection_id = ANY(%s)" if collections is not None else ""
    cursor = await conn.execute(
        "SELECT c.id, c.tenant_id, c.char_start, c.content FROM chunks c"
        " JOIN documents d ON d.id = c.document_id"
        " WHERE c.kind = 'main' AND c.named IS NULL AND d.graphed_version = d.version"
        f" AND c.id > %s{only} ORDER BY c.id LIMIT %s",
        [after or UUID(int=0), *([collections] if collections is not None else []), limit],
    )
    return [UnreadChunk(*row) for row in await cursor.fetchall()]


async def named_in(conn: Conn, tenant: Tenant, chunk_ids: list[UUID]) -> dict[UUID, list[Named]]:
    """Chunk id -> the entities found in it, in offsets into the chunk's text, of chunks the
    tenant's key may see; chunks not yet read are left out."""
    scoped, params = visible(tenant, "d")
    cursor = await conn.execute(
        "SELECT c.id, c.content, c.char_start, c.named FROM chunks c"
        " JOIN documents d ON d.id = c.document_id"
        " WHERE c.tenant_id = %s AND c.id = ANY(%s) AND c.named IS NOT NULL" + scoped,
        (tenant.id, chunk_ids, *params),
    )
    found: dict[UUID, list[Named]] = {}
    for chunk, text, offset, named in await cursor.fetchall():
        spans = [(start - offset, end - offset, label) for start, end, label in named]
        found[chunk] = [Named(text[a:b], label, a, b) for a, b, label in spans]
    return found


async def held_graph(conn: Conn, tenant_id: UUID, collection_id: UUID) -> MentionGraph | None:
    """Every mention of a collection's entities, read in one snapshot with the versions that
    date it (the BM25 statistics' and the graph's); None if nothing is indexed.

    `conn` must be idle (store/bm25.snapshot).
    """
    async with bm25.snapshot(conn, tenant_id, collection_id) as found:
        if found is None:
            return None
        cursor = await conn.execute(
            "SELECT m.entity_id::text, m.chunk_id::text, m.weight, m.document_id::text"
            " FROM mentions m"
            " JOIN entities e ON e.id = m.entity_id"
            " WHERE e.collection_id = %s AND e.tenant_id = %s AND m.tenant_id = %s",
            (collection_id, tenant_id, tenant_id),
        )
        rows = await cursor.fetchall()
    return MentionGraph.of(graph_version(found), rows)


def graph_version(stats: bm25.Stats) -> tuple[int, int]:
    """What dates a collection's mentions: a document's chunks deleted with their mentions
    move the statistics' version; mentions written or replaced, the graph's."""
    return stats.version, stats.graph_version
