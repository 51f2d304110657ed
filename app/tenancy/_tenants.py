"""The operator's commands name a tenant; an unknown name is NOT_FOUND."""

from __future__ import annotations

from app.errors import ErrorCode, TrellisError
from store import tenants
from store.pool import Pool
from store.tenants import Tenant


async def tenant_named(pool: Pool, name: str) -> Tenant:
    async with pool.connection() as conn:
        tenant = await tenants.by_name(conn, name)
    if tenant is None:
        raise TrellisError(ErrorCode.NOT_FOUND, f"no tenant {name!r}")
    return tenant
