"""Planner statistics, refreshed when an ingest job changes its collection by a tenth.

Postgres plans the search statements from table statistics, and autovacuum refreshes them only
when a tenth of a whole table has changed. A new collection in a database holding large ones
stays unknown to the planner, whose estimates for it (from the other collections) chose plans
that took 0.5–1.4 s where 0.02 s was enough after an ANALYZE. So the job's own transaction
analyses the searched tables when it finishes: a search that sees the job finished sees the
statistics too.
"""

from __future__ import annotations

from uuid import UUID

from store.pool import Conn

STALE_SHARE = 0.1  # of a collection's chunks added or removed since it was last analysed
SEARCHED = "documents, chunks, chunk_links, sections, postings, collection_stats"


async def refresh_for(conn: Conn, finished_jobs: list[UUID]) -> bool:
    """Analyse the searched tables when a finished job's collection is stale; whether it did."""
    stale = await _stale_collections(conn, finished_jobs)
    if not stale:
        return False
    await conn.execute(f"ANALYZE {SEARCHED}")
    await conn.execute(
        "UPDATE collection_stats SET analyzed_chunk_count = chunk_count"
        " WHERE collection_id = ANY(%s)",
        (stale,),
    )
    return True


async def _stale_collections(conn: Conn, job_ids: list[UUID]) -> list[UUID]:
    cursor = await conn.execute(
        "SELECT DISTINCT s.collection_id FROM collection_stats s"
        " JOIN ingest_jobs j ON j.collection_id = s.collection_id WHERE j.id = ANY(%s)"
        " AND abs(s.chunk_count - s.analyzed_chunk_count) > %s * s.chunk_count",
        (job_ids, STALE_SHARE),
    )
    return [row[0] for row in await cursor.fetchall()]
