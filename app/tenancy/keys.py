"""Key lifecycle: create (the secret is shown once), list, revoke.

A key made through the API can grant no more than its maker holds: no scope the maker
lacks, and, for a maker narrowed to content scopes, only a subset of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

from app.errors import ErrorCode, TrellisError
from app.tenancy._tenants import tenant_named
from app.tenancy.principal import ALL_SCOPES, Principal, Scope
from app.tenancy.visibility import whole_tenant_only
from store import keys, tenants
from store.keys import KeyRow as KeyRow
from store.keys import KeySpec
from store.pool import Pool
from store.tenants import Tenant

MAX_CONTENT_SCOPES = 50
MAX_NAME = 200
CONTENT_SCOPE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@/-]{0,99}$")


@dataclass(frozen=True)
class KeyRequest:
    scopes: tuple[str, ...] | None = None  # None: every scope
    content_scopes: tuple[str, ...] = ()
    name: str = ""
    expires_at: datetime | None = None


@dataclass(frozen=True)
class CreatedKey:
    key: KeyRow
    secret: str


class ApiKeys:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def create(self, tenant: Tenant, request: KeyRequest) -> CreatedKey:
        spec = key_spec(request)
        async with self._pool.connection() as conn:
            row, secret = await keys.create(conn, tenant.id, spec)
        return CreatedKey(row, secret)

    async def create_for(self, maker: Principal, request: KeyRequest) -> CreatedKey:
        """A key made by `maker`, within what `maker` may grant."""
        check_grantable(maker, key_spec(request))
        return await self.create(maker.tenant, request)

    async def create_for_name(self, tenant_name: str, request: KeyRequest) -> CreatedKey:
        """The CLI's path: the tenant is created when it does not exist."""
        spec = key_spec(request)
        async with self._pool.connection() as conn, conn.transaction():
            tenant = await tenants.ensure_tenant(conn, check_tenant_name(tenant_name))
            row, secret = await keys.create(conn, tenant.id, spec)
        return CreatedKey(row, secret)

    async def operator(self, tenant: Tenant) -> Principal:
        """A principal with every scope, on a key of its own, for in-process callers such as
        benchmarks: their usage is metered like any other key's."""
        created = await self.create(tenant, KeyRequest(name="operator"))
        async with self._pool.connection() as conn:
            key = await keys.active(conn, created.secret)
        assert key is not None
        return Principal.of(key)

    async def of_tenant(self, tenant: Tenant) -> list[KeyRow]:
        whole_tenant_only(tenant, "listing API keys")
        async with self._pool.connection() as conn:
            return await keys.for_tenant(conn, tenant.id)

    async def of_tenant_named(self, tenant_name: str) -> list[KeyRow]:
        return await self.of_tenant(await tenant_named(self._pool, tenant_name))

    async def revoke(self, key_id: UUID, tenant: Tenant | None = None) -> KeyRow:
        """Revoke a key; within `tenant` when given (the API), any tenant's (the CLI)."""
        if tenant is not None:
            whole_tenant_only(tenant, "revoking API keys")
        async with self._pool.connection() as conn:
            row = await keys.revoke(conn, key_id, None if tenant is None else tenant.id)
        if row is None:
            raise TrellisError(ErrorCode.NOT_FOUND, f"no API key {key_id}")
        return row


def key_spec(request: KeyRequest) -> KeySpec:
    scopes = ALL_SCOPES if request.scopes is None else _scopes(request.scopes)
    if len(request.name) > MAX_NAME:
        raise _bad("name", f"a key name is at most {MAX_NAME} characters")
    return KeySpec(
        tuple(s.value for s in scopes),
        checked_content_scopes(request.content_scopes, "contentScopes"),
        request.name.strip(),
        _expiry(request.expires_at),
    )


def check_grantable(maker: Principal, spec: KeySpec) -> None:
    missing = [s for s in spec.scopes if Scope(s) not in maker.scopes]
    if missing:
        raise _forbidden(f"a key cannot grant scopes it does not hold: {', '.join(missing)}")
    wider = maker.content_scopes and not (
        spec.content_scopes and set(spec.content_scopes) <= set(maker.content_scopes)
    )
    if wider:
        raise _forbidden("a key narrowed to content scopes can grant only a subset of them")


def check_tenant_name(name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= 200:
        raise _bad("tenant", "a tenant name is 1 to 200 characters and not blank")
    return name


def _scopes(names: tuple[str, ...]) -> tuple[Scope, ...]:
    known = {s.value: s for s in Scope}
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise _bad(
            "scopes",
            f"scopes must be some of {', '.join(known)}"
            + (f"; unknown: {', '.join(unknown)}" if unknown else ""),
        )
    return tuple(dict.fromkeys(known[n] for n in names))


def checked_content_scopes(names: tuple[str, ...], field: str) -> tuple[str, ...]:
    """Content scopes as keys and content carry them: at most 50, each like org:acme."""
    if len(names) > MAX_CONTENT_SCOPES:
        raise _bad(field, f"at most {MAX_CONTENT_SCOPES} content scopes")
    for name in names:
        if not isinstance(name, str) or not CONTENT_SCOPE.match(name):
            raise _bad(
                field,
                f"content scope {name[:40]!r} must be 1 to 100 letters, digits or _.:@/-,"
                " starting with a letter or digit (for example org:acme)",
            )
    return tuple(dict.fromkeys(names))


def _expiry(expires_at: datetime | None) -> datetime | None:
    if expires_at is None:
        return None
    if expires_at.tzinfo is None:
        expires_at = expires_at.replace(tzinfo=UTC)
    if expires_at <= datetime.now(UTC):
        raise _bad("expiresAt", "a key's expiry must be in the future")
    return expires_at


def _bad(field: str, message: str) -> TrellisError:
    return TrellisError(ErrorCode.BAD_USER_INPUT, message, field=field)


def _forbidden(message: str) -> TrellisError:
    return TrellisError(ErrorCode.FORBIDDEN, message, scope=Scope.ADMIN.value)
