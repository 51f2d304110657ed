"""Small SQL reads the benchmarks share."""

from __future__ import annotations

from typing import Any

from store.pool import Conn

# The id of a row's copy: the same in every table, so copied rows keep their references.
COPY_ID = "md5({}::text || ':' || %(copy)s || ':' || %(target)s::text)::uuid"


async def collection_id(conn: Conn, name: str) -> Any:
    cursor = await conn.execute("SELECT id FROM collections WHERE name = %s", (name,))
    row = await cursor.fetchone()
    return row[0] if row else None


async def count(conn: Conn, sql: str, *params: Any) -> int:
    row = await (await conn.execute(sql, params)).fetchone()
    return int(row[0]) if row else 0
