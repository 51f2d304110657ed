"""Authentication: an API key becomes a principal, or the request is UNAUTHENTICATED."""

from __future__ import annotations

from app.errors import ErrorCode, TrellisError
from app.tenancy.preflight import rate_limited
from app.tenancy.principal import Principal, Scope
from store import keys, rate
from store.pool import Pool, autocommitted
from store.tenants import Tenant as Tenant

API_KEY_HEADER = "x-api-key"
_MAX_KEY_LENGTH = 200


def unauthenticated(reason: str) -> TrellisError:
    return TrellisError(ErrorCode.UNAUTHENTICATED, reason)


async def authenticate(
    pool: Pool, api_key: str | None, counted_as: Scope | None = None
) -> Principal:
    """The key's principal. A revoked or expired key is not valid. With `counted_as`, a key
    holding that scope is also counted against its rate ceiling, in the same round trip
    (RATE_LIMITED when its window is full); one without it is not counted."""
    if not api_key:
        raise unauthenticated("send an API key in the X-API-Key header")
    if len(api_key) > _MAX_KEY_LENGTH:
        raise unauthenticated("the API key is not valid")
    async with autocommitted(pool) as conn:
        if counted_as is None:
            key, counted = await keys.active(conn, api_key), False
        else:
            key, counted = await keys.admitted(conn, api_key, counted_as.value)
        if key is None:
            raise unauthenticated("the API key is not valid, revoked or expired")
        principal = Principal.of(key)
        if counted_as is not None and principal.may(counted_as) and not counted:
            raise rate_limited(principal, await rate.retry_after(conn))
    return principal


def key_from_connection_params(params: object) -> str | None:
    """WebSocket clients send the key as connection_params {"X-API-Key": ...} or {"apiKey": ...}."""
    if not isinstance(params, dict):
        return None
    for name in ("X-API-Key", "x-api-key", "apiKey"):
        value = params.get(name)
        if isinstance(value, str):
            return value
    return None
