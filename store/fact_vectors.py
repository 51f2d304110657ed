"""Fact vectors: each current fact's text embedded with its collection's model, and the
facts nearest a query (query-to-fact matching, as HippoRAG 2 matches queries to triples).

A fact's text is "subject predicate object" with the entities' names ("Ermengarde of Tours
daughter of Hugh of Tours"): the relation in words, which neither a passage's vector nor
a name in the query carries on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import numpy as np
from numpy.typing import NDArray

from store.pool import Conn
from store.tenants import Tenant, visible


@dataclass(frozen=True)
class FactText:
    id: UUID
    model: str  # the collection's embedding model
    text: str


@dataclass(frozen=True)
class FactMatch:
    subject_id: str
    object_id: str
    similarity: float


async def unembedded(
    conn: Conn, models: list[str], collections: list[UUID] | None, limit: int
) -> list[FactText]:
    """Current facts still without a vector, oldest first, of collections on one of
    `models` (of these collections, or all)."""
    only = " AND f.collection_id = ANY(%s)" if collections is not None else ""
    cursor = await conn.execute(
        "SELECT f.id, c.embedding_model, s.name || ' ' || f.predicate || ' ' || o.name"
        " FROM facts f JOIN collections c ON c.id = f.collection_id"
        " JOIN entities s ON s.id = f.subject_id JOIN entities o ON o.id = f.object_id"
        " WHERE f.embedding IS NULL AND f.invalidated_at IS NULL"
        f" AND c.embedding_model = ANY(%s){only} ORDER BY f.recorded_at, f.id LIMIT %s",
        [models, *([collections] if collections is not None else []), limit],
    )
    return [FactText(*row) for row in await cursor.fetchall()]


async def set_vectors(conn: Conn, ids: list[UUID], vectors: NDArray[np.float32]) -> None:
    async with conn.cursor() as cursor:
        await cursor.executemany(
            "UPDATE facts SET embedding = %s WHERE id = %s",
            [(vector, ident) for ident, vector in zip(ids, vectors, strict=True)],
        )


@dataclass(frozen=True)
class FactQuery:
    collection_id: UUID
    vector: NDArray[np.float32]
    limit: int
    about: tuple[str, ...] | None = None  # only facts with one of these entities; None: any


async def nearest(conn: Conn, tenant: Tenant, query: FactQuery) -> list[FactMatch]:
    """The current facts of a collection most similar to the query's vector, among those
    the tenant's key may see. Over all the collection's facts, through the per-dimension
    HNSW index of migration 0013 where the planner finds it cheaper than a scan."""
    dim = int(query.vector.shape[0])
    seen, scopes = visible(tenant, "d")
    distance = f"f.embedding::vector({dim}) <=> %s"
    about = " AND (f.subject_id = ANY(%s::uuid[]) OR f.object_id = ANY(%s::uuid[]))"
    entities = [list(query.about)] * 2 if query.about is not None else []
    cursor = await conn.execute(
        f"SELECT f.subject_id::text, f.object_id::text, 1 - ({distance}) FROM facts f"
        " JOIN documents d ON d.id = f.document_id"
        " WHERE f.tenant_id = %s AND f.collection_id = %s AND f.invalidated_at IS NULL"
        f" AND vector_dims(f.embedding) = {dim}{seen}{about if entities else ''}"
        f" ORDER BY {distance}, f.id LIMIT %s",
        [query.vector, tenant.id, query.collection_id, *scopes, *entities, query.vector,
         query.limit],
    )  # fmt: skip
    return [FactMatch(s, o, float(sim)) for s, o, sim in await cursor.fetchall()]
