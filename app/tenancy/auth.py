"""API keys: authenticate a request to exactly one tenant, and mint keys for the CLI."""

from __future__ import annotations

from app.errors import ErrorCode, TrellisError
from store import tenants
from store.pool import Pool
from store.tenants import Tenant as Tenant

API_KEY_HEADER = "x-api-key"
_MAX_KEY_LENGTH = 200


def unauthenticated(reason: str) -> TrellisError:
    return TrellisError(ErrorCode.UNAUTHENTICATED, reason)


async def authenticate(pool: Pool, api_key: str | None) -> Tenant:
    if not api_key:
        raise unauthenticated("send an API key in the X-API-Key header")
    if len(api_key) > _MAX_KEY_LENGTH:
        raise unauthenticated("the API key is not valid")
    async with pool.connection() as conn:
        tenant = await tenants.tenant_for_key(conn, api_key)
    if tenant is None:
        raise unauthenticated("the API key is not valid")
    return tenant


def key_from_connection_params(params: object) -> str | None:
    """WebSocket clients send the key as connection_params {"X-API-Key": ...} or {"apiKey": ...}."""
    if not isinstance(params, dict):
        return None
    for name in ("X-API-Key", "x-api-key", "apiKey"):
        value = params.get(name)
        if isinstance(value, str):
            return value
    return None


async def create_key(pool: Pool, tenant_name: str) -> str:
    """A new key for `tenant_name`, creating the tenant if needed."""
    async with pool.connection() as conn, conn.transaction():
        tenant = await tenants.ensure_tenant(conn, tenant_name)
        return await tenants.create_api_key(conn, tenant)
