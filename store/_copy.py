"""COPY rows into a table: the fast path for writing many rows in one transaction."""

from __future__ import annotations

from typing import Any

from store.pool import Conn


async def copy_rows(
    conn: Conn, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]
) -> None:
    if not rows:
        return
    statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    async with conn.cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            await copy.write_row(row)
