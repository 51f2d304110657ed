"""Themes: the global view of a collection. Communities of its entity graph, each with a
digest of top entities (PageRank), best-supported facts and representative chunks.

Recomputed in the background once a collection's graph has changed and settled, so a
query reads stored digests and never runs community detection itself.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from app.backend_errors import log_pass_failure
from app.collections.service import Collections
from app.errors import ErrorCode, TrellisError
from app.knowledge.communities import Communities, detect
from app.limits import check_range
from store import knowledge
from store import themes as rows
from store.pool import Conn, Pool
from store.tenants import Tenant
from store.themes import ThemeRow as ThemeRow

log = logging.getLogger(__name__)

MAX_EDGES = 2_000_000  # the strongest pairs of a huge collection; memory stays bounded
MAX_THEMES = 100
TOP_ENTITIES = 10
TOP_FACTS = 5
TOP_CHUNKS = 3


@dataclass(frozen=True)
class ThemeSet:
    themes: list[ThemeRow]
    updated_at: datetime | None
    stale: bool


class Themes:
    def __init__(self, pool: Pool, collections: Collections, max_first: int) -> None:
        self._pool = pool
        self._collections = collections
        self._max_first = max_first

    async def get(self, tenant: Tenant, collection: str, first: int) -> ThemeSet:
        check_range("first", first, 1, self._max_first)
        target = await self._collections.get(tenant, collection)
        async with self._pool.connection() as conn:
            if tenant.content_scopes:
                return await _seen_by(conn, tenant, target.id, first)
            return ThemeSet(*await rows.load(conn, tenant.id, target.id, first))

    async def refresh(self, tenant: Tenant, collection: str) -> None:
        """Recompute now; refused while a run of the same collection is under way."""
        target = await self._collections.get(tenant, collection)
        if not await self.compute(tenant.id, target.id):
            raise TrellisError(
                ErrorCode.ALREADY_RUNNING,
                f"the themes of {collection!r} are being computed already; read them when"
                " that run ends",
                field="collection",
            )

    async def refresh_stale(self) -> int:
        async with self._pool.connection() as conn:
            stale = await rows.stale_collections(conn)
        return sum([await self.compute(tenant, collection) for tenant, collection in stale])

    async def compute(self, tenant_id: UUID, collection_id: UUID) -> bool:
        """Compute and store the collection's themes, unless another run holds it."""
        async with self._pool.connection() as conn:
            if not await rows.try_lock(conn, collection_id):
                return False
            try:
                started = await _now(conn)
                digests = await _themes(conn, tenant_id, collection_id, ())
                async with conn.transaction():
                    await rows.save(conn, tenant_id, collection_id, digests, started)
            finally:
                await rows.unlock(conn, collection_id)
        log.info("themes of %s: %d", collection_id, len(digests))
        return True


async def _seen_by(conn: Conn, tenant: Tenant, collection_id: UUID, first: int) -> ThemeSet:
    """A key narrowed to content scopes gets the themes of the graph its own content makes,
    computed when asked: each set of scopes has its own, so none is stored."""
    started = await _now(conn)
    themes = await _themes(conn, tenant.id, collection_id, tenant.content_scopes)
    return ThemeSet(themes[:first], started, False)


async def _now(conn: Conn) -> datetime:
    cursor = await conn.execute("SELECT now()")
    found = await cursor.fetchone()
    assert found is not None
    return found[0]  # type: ignore[no-any-return]


@dataclass(frozen=True)
class _Reading:
    """What every theme's digest reads from."""

    conn: Conn
    found: Communities
    facts: list[tuple[str, str, str, int]]
    seen: rows.Seen


async def _themes(
    conn: Conn, tenant_id: UUID, collection_id: UUID, seen: rows.Seen
) -> list[ThemeRow]:
    edges = await rows.entity_graph(conn, tenant_id, collection_id, seen, MAX_EDGES)
    found = await asyncio.to_thread(detect, edges)
    facts = await rows.supported_facts(conn, tenant_id, collection_id, seen)
    reading = _Reading(conn, found, facts, seen)
    communities = found.members[:MAX_THEMES]
    return [await _digest(reading, ordinal, members) for ordinal, members in enumerate(communities)]


async def _digest(reading: _Reading, ordinal: int, members: list[str]) -> ThemeRow:
    pagerank = reading.found.pagerank
    top = sorted(members, key=lambda e: (-pagerank[e], e))[:TOP_ENTITIES]
    inside = set(members)
    theme_facts = [f for f in reading.facts if f[0] in inside and f[2] in inside][:TOP_FACTS]
    fact_ids = {e for s, _, o, _ in theme_facts for e in (s, o)}
    entities = {
        row["id"]: _entity(row)
        for row in await knowledge.entity_rows(reading.conn, [UUID(e) for e in {*top, *fact_ids}])
    }
    digest = {
        "entities": [{**entities[e], "score": pagerank[e]} for e in top if e in entities],
        "facts": [
            {"subject": entities[s], "predicate": p, "object": entities[o], "support": n}
            for s, p, o, n in theme_facts
            if s in entities and o in entities
        ],
        "chunks": await rows.representative_chunks(reading.conn, top, reading.seen, TOP_CHUNKS),
    }
    label = ", ".join(e["name"] for e in digest["entities"][:3])
    return ThemeRow(ordinal, label, len(members), digest)


def _entity(row: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "name", "type", "aliases", "mention_count")
    return {key: row[key] for key in keys}


async def run_themes_loop(themes: Themes, interval_seconds: float = 3.0) -> None:
    """Recompute stale themes in the background, collection by collection."""
    while True:
        try:
            await themes.refresh_stale()
        except Exception as error:
            log_pass_failure(log, "themes", error)
        await asyncio.sleep(interval_seconds)
