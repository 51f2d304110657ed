"""What a key narrowed to content scopes may not read yet.

The entity graph's own views (entities, neighbourhoods, paths, timelines, themes) are
computed over the whole collection; filtering them to a key's content scopes in Cypher is
not built yet. Until it is, they refuse such a key instead of showing what it may not see.
"""

from __future__ import annotations

from app.errors import ErrorCode, TrellisError
from store.tenants import Tenant

CONTENT_SCOPED = "CONTENT_SCOPED_KEY"


def whole_tenant_only(tenant: Tenant, view: str) -> None:
    if tenant.content_scopes:
        raise TrellisError(
            ErrorCode.FORBIDDEN,
            f"{view}: not available to keys narrowed to content scopes yet",
            reason=CONTENT_SCOPED,
        )
