"""A collection's vocabulary rules: synonym sets and one-way expansions, used at query time."""

from __future__ import annotations

from uuid import UUID

from psycopg.rows import class_row

from retrieval.vocabulary import VocabularyRule
from store.pool import Conn


async def replace(
    conn: Conn, tenant_id: UUID, collection_id: UUID, rules: list[VocabularyRule]
) -> None:
    await conn.execute(
        "DELETE FROM vocabulary_rules WHERE tenant_id = %s AND collection_id = %s",
        (tenant_id, collection_id),
    )
    async with conn.cursor() as cursor:
        await cursor.executemany(
            "INSERT INTO vocabulary_rules (tenant_id, collection_id, kind, term, terms)"
            " VALUES (%s, %s, %s, %s, %s)",
            [(tenant_id, collection_id, r.kind, r.term, r.terms) for r in rules],
        )


async def list_rules(conn: Conn, tenant_id: UUID, collection_id: UUID) -> list[VocabularyRule]:
    async with conn.cursor(row_factory=class_row(VocabularyRule)) as cursor:
        await cursor.execute(
            "SELECT kind, term, terms FROM vocabulary_rules"
            " WHERE tenant_id = %s AND collection_id = %s ORDER BY id",
            (tenant_id, collection_id),
        )
        return await cursor.fetchall()
