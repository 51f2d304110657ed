"""A request's deadline, told to both databases: Postgres as `statement_timeout` (store/pool.py)
and Neo4j as each transaction's timeout (graph/driver.py), so that work a request has given up
on stops on the servers too, not only in this process."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

from graph import driver
from store import pool


@contextmanager
def deadline_after(seconds: float) -> Iterator[float]:
    """The request's deadline, on the event loop's clock, for the block's database work."""
    at = asyncio.get_running_loop().time() + seconds
    postgres, neo4j = pool.DEADLINE.set(at), driver.DEADLINE.set(at)
    try:
        yield at
    finally:
        driver.DEADLINE.reset(neo4j)
        pool.DEADLINE.reset(postgres)
