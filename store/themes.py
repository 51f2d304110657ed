"""Themes in Postgres: the entity graph they are computed from, and the computed digests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.pq import TransactionStatus
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from store.pool import Conn
from store.tenants import carrying

SETTLE_SECONDS = 2  # let a job's last batches land before recomputing
MAX_WAIT_SECONDS = 60  # then recompute even while documents still wait for the graph


# The content scopes a theme reads through; empty: every document of the collection.
Seen = tuple[str, ...]


@dataclass(frozen=True)
class ThemeRow:
    ordinal: int
    label: str
    size: int
    digest: dict[str, Any]


async def mark_graph_changed(conn: Conn, collection_id: UUID) -> None:
    """Called wherever a collection's mentions change, in the same transaction: the version
    tells a process that the mentions it holds in memory (app/search/mention_graphs.py) are
    stale."""
    await conn.execute(
        "UPDATE collections SET graph_changed_at = now(), graph_version = graph_version + 1"
        " WHERE id = %s",
        (collection_id,),
    )


_LOCK_SPACE = 7_342_019  # the advisory-lock namespace of theme runs


async def try_lock(conn: Conn, collection_id: UUID) -> bool:
    """Take the collection's theme-run lock for this session, if no other session holds it:
    one run per collection at a time, across every server process."""
    cursor = await conn.execute(
        "SELECT pg_try_advisory_lock(%s, hashtext(%s))", (_LOCK_SPACE, str(collection_id))
    )
    row = await cursor.fetchone()
    return bool(row and row[0])


async def unlock(conn: Conn, collection_id: UUID) -> None:
    """Give the lock back, whatever state a failed run left the connection in: a session's
    advisory lock outlives its transactions, and would outlive the run."""
    if conn.info.transaction_status == TransactionStatus.INERROR:
        await conn.rollback()
    await conn.execute(
        "SELECT pg_advisory_unlock(%s, hashtext(%s))", (_LOCK_SPACE, str(collection_id))
    )


async def stale_collections(conn: Conn) -> list[tuple[UUID, UUID]]:
    """(tenant, collection) whose graph changed since their themes, and has settled: no
    document waits for the graph, or the change is old enough."""
    cursor = await conn.execute(
        "SELECT c.tenant_id, c.id FROM collections c"
        " WHERE c.graph_changed_at IS NOT NULL"
        " AND (c.themes_updated_at IS NULL OR c.themes_updated_at < c.graph_changed_at)"
        " AND c.graph_changed_at < now() - make_interval(secs => %s)"
        " AND (c.graph_changed_at < now() - make_interval(secs => %s) OR NOT EXISTS ("
        "  SELECT 1 FROM documents d WHERE d.collection_id = c.id"
        "  AND d.status = 'INDEXED'))"
        " ORDER BY c.graph_changed_at",
        (SETTLE_SECONDS, MAX_WAIT_SECONDS),
    )
    return [(row[0], row[1]) for row in await cursor.fetchall()]


async def entity_graph(
    conn: Conn, tenant_id: UUID, collection_id: UUID, seen: Seen, limit: int
) -> dict[tuple[str, str], float]:
    """Entity pairs weighted by co-occurrences plus current facts, strongest `limit` pairs,
    from the documents `seen` lets through."""
    scoped, scopes = carrying(seen, "d")
    cursor = await conn.execute(
        "SELECT least(a, b)::text, greatest(a, b)::text, sum(w)::float8 AS weight FROM ("
        " SELECT c.entity_a AS a, c.entity_b AS b, c.weight AS w FROM cooccurrences c"
        " JOIN documents d ON d.id = c.document_id"
        f" WHERE d.tenant_id = %s AND d.collection_id = %s{scoped}"
        " UNION ALL SELECT f.subject_id, f.object_id, 1 FROM facts f"
        " JOIN documents d ON d.id = f.document_id"
        f" WHERE f.tenant_id = %s AND f.collection_id = %s{scoped}"
        " AND f.invalidated_at IS NULL) pairs"
        " GROUP BY 1, 2 ORDER BY weight DESC, 1, 2 LIMIT %s",
        (tenant_id, collection_id, *scopes, tenant_id, collection_id, *scopes, limit),
    )
    return {(a, b): w for a, b, w in await cursor.fetchall()}


async def supported_facts(
    conn: Conn, tenant_id: UUID, collection_id: UUID, seen: Seen
) -> list[tuple[str, str, str, int]]:
    """(subject, predicate, object, how many sentences state it) for current facts."""
    scoped, scopes = carrying(seen, "d")
    cursor = await conn.execute(
        "SELECT f.subject_id::text, f.predicate, f.object_id::text, count(*)::int FROM facts f"
        " JOIN documents d ON d.id = f.document_id"
        f" WHERE f.tenant_id = %s AND f.collection_id = %s{scoped}"
        " AND f.invalidated_at IS NULL GROUP BY 1, 2, 3 ORDER BY 4 DESC, 2",
        (tenant_id, collection_id, *scopes),
    )
    return [(s, p, o, n) for s, p, o, n in await cursor.fetchall()]


async def representative_chunks(
    conn: Conn, entity_ids: list[str], seen: Seen, limit: int
) -> list[dict[str, Any]]:
    """Main chunks mentioning the most of these entities, then mentioning them most."""
    scoped, scopes = carrying(seen, "d")
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(
            "SELECT m.chunk_id::text AS chunk_id, m.document_id::text AS document_id,"
            " d.title, c.char_start, c.char_end, left(c.content, 300) AS excerpt,"
            " count(*)::int AS entities FROM mentions m"
            " JOIN chunks c ON c.id = m.chunk_id JOIN documents d ON d.id = m.document_id"
            f" WHERE m.entity_id = ANY(%s::uuid[]){scoped}"
            " GROUP BY m.chunk_id, m.document_id, d.title, c.char_start, c.char_end, c.content"
            " ORDER BY count(*) DESC, sum(m.count) DESC, m.chunk_id LIMIT %s",
            (entity_ids, *scopes, limit),
        )
        return await cursor.fetchall()


async def save(
    conn: Conn, tenant_id: UUID, collection_id: UUID, themes: list[ThemeRow], as_of: datetime
) -> None:
    """Replace the collection's themes; `as_of` is when the graph was read."""
    await conn.execute("DELETE FROM themes WHERE collection_id = %s", (collection_id,))
    async with conn.cursor() as cursor:
        await cursor.executemany(
            "INSERT INTO themes (tenant_id, collection_id, ordinal, label, size, digest)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            [
                (tenant_id, collection_id, t.ordinal, t.label, t.size, Jsonb(t.digest))
                for t in themes
            ],
        )
    await conn.execute(
        "UPDATE collections SET themes_updated_at = %s WHERE id = %s", (as_of, collection_id)
    )


async def load(
    conn: Conn, tenant_id: UUID, collection_id: UUID, first: int
) -> tuple[list[ThemeRow], datetime | None, bool]:
    """Themes, when they were computed, and whether the graph changed since."""
    cursor = await conn.execute(
        "SELECT themes_updated_at, graph_changed_at > coalesce(themes_updated_at, '-infinity')"
        " FROM collections WHERE tenant_id = %s AND id = %s",
        (tenant_id, collection_id),
    )
    updated_at, stale = await cursor.fetchone() or (None, False)
    cursor = await conn.execute(
        "SELECT ordinal, label, size, digest FROM themes WHERE tenant_id = %s"
        " AND collection_id = %s ORDER BY ordinal LIMIT %s",
        (tenant_id, collection_id, first),
    )
    return [ThemeRow(*row) for row in await cursor.fetchall()], updated_at, bool(stale)
