"""Mint API keys straight through the service layer, as `trellis keys create` does."""

from __future__ import annotations

import asyncio

from app.localdb.stack import Stack
from app.tenancy.auth import create_key
from store.pool import open_pool


def make_key(stack: Stack, tenant: str) -> str:
    async def mint() -> str:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            return await create_key(pool, tenant)
        finally:
            await pool.close()

    return asyncio.run(mint())
