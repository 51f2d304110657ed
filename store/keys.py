"""API keys. Only a key's SHA-256 digest is stored; the secret is shown once, at creation."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from uuid import UUID

from psycopg.rows import class_row

from store import rate
from store.pool import Conn

_SECRET_PREFIX = "trk_"
_KEY_COLUMNS = (
    "k.id, k.tenant_id, k.name, k.prefix, k.scopes, k.content_scopes, k.created_at,"
    " k.expires_at, k.revoked_at"
)


@dataclass(frozen=True)
class KeySpec:
    """What a new key may do and see."""

    scopes: tuple[str, ...]
    content_scopes: tuple[str, ...] = ()
    name: str = ""
    expires_at: datetime | None = None


@dataclass(frozen=True)
class KeyRow:
    id: UUID
    tenant_id: UUID
    name: str
    prefix: str
    scopes: list[str]
    content_scopes: list[str]
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None


@dataclass(frozen=True)
class ActiveKey:
    """A live key with its tenant and the tenant's plan: all authentication needs."""

    id: UUID
    tenant_id: UUID
    tenant_name: str
    scopes: list[str]
    content_scopes: list[str]
    plan: str
    requests_per_minute: int
    monthly_answers: int | None
    plan_models: list[str]
    credits_per_answer: Decimal
    credits_per_1k_tokens: Decimal


def hash_secret(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


async def create(conn: Conn, tenant_id: UUID, spec: KeySpec) -> tuple[KeyRow, str]:
    """A new key and its secret, which is returned only here."""
    secret = _SECRET_PREFIX + secrets.token_urlsafe(32)
    async with conn.cursor(row_factory=class_row(KeyRow)) as cursor:
        await cursor.execute(
            "INSERT INTO api_keys AS k (tenant_id, key_hash, prefix, name, scopes,"
            " content_scopes, expires_at) VALUES (%s, %s, %s, %s, %s, %s, %s)"
            f" RETURNING {_KEY_COLUMNS}",
            (
                tenant_id,
                hash_secret(secret),
                secret[:8],
                spec.name,
                list(spec.scopes),
                list(spec.content_scopes),
                spec.expires_at,
            ),
        )
        row = await cursor.fetchone()
    assert row is not None
    return row, secret


_LIVE = (
    "SELECT k.id, k.tenant_id, t.name AS tenant_name, k.scopes, k.content_scopes,"
    " t.plan, p.requests_per_minute, p.monthly_answers, p.models AS plan_models,"
    " p.credits_per_answer, p.credits_per_1k_tokens"
    " FROM api_keys k JOIN tenants t ON t.id = k.tenant_id"
    " JOIN plans p ON p.name = t.plan"
    " WHERE k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())"
)
_ACTIVE = _LIVE + " AND k.key_hash = %(hash)s"
# The lookup and the rate count in one round trip: the request is counted only when the key
# holds `scope` and its window has room.
_ADMITTED = (
    f"WITH k AS ({_ACTIVE}), w AS ("
    + rate.count_one(
        "SELECT k.id FROM k WHERE %(scope)s = ANY(k.scopes)", "SELECT requests_per_minute FROM k"
    )
    + ") SELECT k.*, EXISTS (SELECT 1 FROM w) AS counted FROM k"
)


async def active(conn: Conn, secret: str) -> ActiveKey | None:
    """The key with this secret, unless it is revoked or expired."""
    async with conn.cursor(row_factory=class_row(ActiveKey)) as cursor:
        await cursor.execute(_ACTIVE, {"hash": hash_secret(secret)})
        return await cursor.fetchone()


async def active_by_id(conn: Conn, key_id: UUID) -> ActiveKey | None:
    """The key with this id, unless it is revoked or expired: who a queued run runs as."""
    async with conn.cursor(row_factory=class_row(ActiveKey)) as cursor:
        await cursor.execute(_LIVE + " AND k.id = %(id)s", {"id": key_id})
        return await cursor.fetchone()


async def admitted(conn: Conn, secret: str, scope: str) -> tuple[ActiveKey | None, bool]:
    """The live key, and whether this request was counted against its rate window: not
    when the key lacks `scope` or its window is full."""
    cursor = await conn.execute(_ADMITTED, {"hash": hash_secret(secret), "scope": scope})
    row = await cursor.fetchone()
    if row is None:
        return None, False
    names = [column.name for column in cursor.description or []]
    values = dict(zip(names, row, strict=True))
    counted = bool(values.pop("counted"))
    return ActiveKey(**values), counted


async def for_tenant(conn: Conn, tenant_id: UUID) -> list[KeyRow]:
    async with conn.cursor(row_factory=class_row(KeyRow)) as cursor:
        await cursor.execute(
            f"SELECT {_KEY_COLUMNS} FROM api_keys k WHERE k.tenant_id = %s"
            " ORDER BY k.created_at, k.id",
            (tenant_id,),
        )
        return await cursor.fetchall()


async def revoke(conn: Conn, key_id: UUID, tenant_id: UUID | None = None) -> KeyRow | None:
    """Revoke a key (within `tenant_id` when given); None when there is no such key.
    Revoking twice keeps the first time."""
    async with conn.cursor(row_factory=class_row(KeyRow)) as cursor:
        await cursor.execute(
            "UPDATE api_keys AS k SET revoked_at = coalesce(k.revoked_at, now())"
            " WHERE k.id = %s AND (%s::uuid IS NULL OR k.tenant_id = %s)"
            f" RETURNING {_KEY_COLUMNS}",
            (key_id, tenant_id, tenant_id),
        )
        return await cursor.fetchone()
