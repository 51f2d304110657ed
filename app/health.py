"""Backend health: is each database answering, and how fast."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.services import Services


@dataclass(frozen=True)
class BackendHealth:
    name: str
    up: bool
    latency_ms: float | None
    error: str | None


async def check_backends(services: Services) -> list[BackendHealth]:
    timeout = services.settings.db_timeout_seconds
    return list(
        await asyncio.gather(
            _probe("postgres", lambda: _ping_postgres(services), timeout),
            _probe("neo4j", lambda: _ping_neo4j(services), timeout),
        )
    )


async def _ping_postgres(services: Services) -> None:
    async with services.pool.connection() as conn:
        await conn.execute("SELECT 1")


async def _ping_neo4j(services: Services) -> None:
    await services.graph.read("RETURN 1 AS ok")


async def _probe(name: str, ping: Callable[[], Awaitable[None]], timeout: float) -> BackendHealth:
    started = time.perf_counter()
    try:
        await asyncio.wait_for(ping(), timeout)
    except Exception as error:  # any failure means "down"; the reason is reported, not raised
        reason = "timed out" if isinstance(error, TimeoutError) else type(error).__name__
        return BackendHealth(name, False, None, reason)
    return BackendHealth(name, True, round((time.perf_counter() - started) * 1000, 3), None)
