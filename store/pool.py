"""The async connection pool, with pgvector registered on every connection."""

from __future__ import annotations

from pgvector.psycopg import register_vector_async
from psycopg import AsyncConnection
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool

Conn = AsyncConnection[TupleRow]
Pool = AsyncConnectionPool[Conn]


async def open_pool(url: str, size: int, timeout: float) -> Pool:
    """Open and fill the pool; raises PoolTimeout when the server does not answer."""
    pool: Pool = AsyncConnectionPool(
        url,
        min_size=1,
        max_size=size,
        timeout=timeout,
        open=False,
        configure=_configure,
        # Discard connections broken by a server restart instead of handing them out.
        check=AsyncConnectionPool.check_connection,
        kwargs={"connect_timeout": max(1, int(timeout)), "application_name": "trellis"},
    )
    await pool.open(wait=True, timeout=timeout)
    return pool


async def _configure(conn: AsyncConnection[TupleRow]) -> None:
    await register_vector_async(conn)
    # register_vector_async queries the catalog; end that implicit transaction so the
    # pool receives an idle connection.
    await conn.commit()
