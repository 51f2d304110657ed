"""Request-rate windows: one fixed minute per key, counted in Postgres so that every
server process sharing the database enforces the same ceiling."""

from __future__ import annotations

from uuid import UUID

from store.pool import Conn


def count_one(key: str, ceiling: str) -> str:
    """The statement that counts one request of the key the query `key` selects (none when
    it selects no row), returning a row only when the request was counted. The count only
    grows while it is below `ceiling`, so a refused request costs nothing; a new minute
    starts the count again."""
    return (
        "INSERT INTO rate_windows AS w (key_id, window_start, requests)"
        f" SELECT key.id, date_trunc('minute', now()), 1 FROM ({key}) AS key(id)"
        " ON CONFLICT (key_id) DO UPDATE SET"
        " requests = CASE WHEN w.window_start = EXCLUDED.window_start"
        " THEN w.requests + 1 ELSE 1 END,"
        " window_start = EXCLUDED.window_start"
        f" WHERE w.window_start <> EXCLUDED.window_start OR w.requests < ({ceiling})"
        " RETURNING requests"
    )


_TAKE = count_one("SELECT %(key)s::uuid", "%(ceiling)s")
_RETRY_AFTER = (
    "SELECT ceil(extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now()))"
)


async def take(conn: Conn, key_id: UUID, ceiling: int) -> int | None:
    """Count one request; None when the key's window is full, and then the seconds to wait."""
    cursor = await conn.execute(_TAKE, {"key": key_id, "ceiling": ceiling})
    if await cursor.fetchone() is not None:
        return None
    return await retry_after(conn)


async def retry_after(conn: Conn) -> int:
    """Seconds until the current window ends."""
    cursor = await conn.execute(_RETRY_AFTER)
    row = await cursor.fetchone()
    assert row is not None
    return max(1, int(row[0]))
