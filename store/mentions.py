"""Where entities are mentioned: the text of chunks and the spans of mentions in them."""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from store.pool import Conn


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
        (tenant_id, chunk_ids, tenant_id),
    )
    found: dict[str, ChunkMentions] = {}
    for chunk, text, offset, entity, spans in await cursor.fetchall():
        # Spans are in document offsets; the chunk's text starts at `offset`.
        pairs = [(s - offset, e - offset) for s, e in zip(spans[0::2], spans[1::2], strict=True)]
        found.setdefault(chunk, ChunkMentions(text)).spans[entity] = pairs
    return found
