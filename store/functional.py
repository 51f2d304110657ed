"""Keep functional facts' valid time closed: the Postgres side of `ingest.functional`.

A chain is the current facts of one functional relation about one entity (one company's
headquarters). Chains are recomputed from scratch, so replaying or reordering documents
gives the same valid times.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from ingest.functional import RELATIONS, ChainFact, FunctionalRelation, close_chain, relation_of
from store.pool import Conn

_SIDE = {"subject": ("subject_id", "object_id"), "object": ("object_id", "subject_id")}


@dataclass(frozen=True)
class ChainKey:
    relation: str
    collection_id: UUID
    entity_id: UUID


async def chain_keys(conn: Conn, document_id: UUID) -> set[ChainKey]:
    """Chains the document's facts (any version) belong to."""
    cursor = await conn.execute(
        "SELECT predicate, collection_id, subject_id, object_id FROM facts WHERE document_id = %s",
        (document_id,),
    )
    keys = set()
    for predicate, collection_id, subject_id, object_id in await cursor.fetchall():
        relation = relation_of(predicate)
        if relation is not None:
            entity = subject_id if relation.per == "subject" else object_id
            keys.add(ChainKey(relation.name, collection_id, entity))
    return keys


async def close_chains(conn: Conn, keys: set[ChainKey]) -> None:
    for key in sorted(keys, key=lambda k: (str(k.collection_id), str(k.entity_id), k.relation)):
        relation = next(r for r in RELATIONS if r.name == key.relation)
        facts = await _chain(conn, relation, key)
        closures = close_chain(facts)
        await conn.execute(
            "UPDATE facts f SET valid_to = u.valid_to, superseded_by = u.superseded_by::uuid"
            " FROM unnest(%s::uuid[], %s::text[], %s::text[]) AS u(id, valid_to, superseded_by)"
            " WHERE f.id = u.id AND (f.valid_to IS DISTINCT FROM u.valid_to"
            " OR f.superseded_by IS DISTINCT FROM u.superseded_by::uuid)",
            (
                list(closures),
                [c.valid_to for c in closures.values()],
                [c.superseded_by for c in closures.values()],
            ),
        )


async def chain_fact_ids(conn: Conn, keys: set[ChainKey]) -> list[UUID]:
    """Current facts of these chains: what Neo4j must be told after a chain changed."""
    ids: list[UUID] = []
    for key in keys:
        relation = next(r for r in RELATIONS if r.name == key.relation)
        ids += [UUID(f.id) for f in await _chain(conn, relation, key)]
    return ids


async def _chain(conn: Conn, relation: FunctionalRelation, key: ChainKey) -> list[ChainFact]:
    side, other = _SIDE[relation.per]
    cursor = await conn.execute(
        f"SELECT id::text, {other}::text, valid_from FROM facts"
        f" WHERE collection_id = %s AND {side} = %s AND predicate = ANY(%s)"
        " AND invalidated_at IS NULL",
        (key.collection_id, key.entity_id, sorted(relation.predicates)),
    )
    return [ChainFact(*row) for row in await cursor.fetchall()]
