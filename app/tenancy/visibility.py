"""What a key narrowed to content scopes may not do: the tenant-wide views and actions
(search logs, usage, the key list, revoking keys, deleting a whole collection) describe or
touch content outside its scopes, so they refuse such a key instead of filtering."""

from __future__ import annotations

from app.errors import ErrorCode, TrellisError
from store.tenants import Tenant

CONTENT_SCOPED = "CONTENT_SCOPED_KEY"


def whole_tenant_only(tenant: Tenant, view: str) -> None:
    if tenant.content_scopes:
        raise TrellisError(
            ErrorCode.FORBIDDEN,
            f"{view}: not available to keys narrowed to content scopes",
            reason=CONTENT_SCOPED,
        )
