"""The content scopes submitted documents and records carry, and what a key narrowed to
content scopes may write: only content inside its scopes, and never over a document it
cannot see."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from app.errors import ErrorCode, TrellisError
from app.tenancy.keys import checked_content_scopes
from store import documents
from store.pool import Conn
from store.tenants import Tenant


def access_scopes(tenant: Tenant, given: Sequence[str] | None, field: str) -> list[str]:
    """The scopes one item will carry. A scoped key's items default to its own scopes and
    may carry only some of them."""
    if given is None:
        return list(tenant.content_scopes)
    scopes = checked_content_scopes(tuple(given), field)
    if tenant.content_scopes and not (scopes and set(scopes) <= set(tenant.content_scopes)):
        raise TrellisError(
            ErrorCode.FORBIDDEN,
            f"{field}: a key narrowed to content scopes writes only content carrying"
            " some of its own scopes",
            field=field,
        )
    return list(scopes)


async def check_overwrites(
    conn: Conn, tenant: Tenant, collection_id: UUID, external_ids: list[str]
) -> None:
    """A scoped key may not replace a document it cannot see."""
    if not tenant.content_scopes:
        return
    hidden = await documents.hidden_external_ids(conn, tenant, collection_id, external_ids)
    if hidden:
        raise TrellisError(
            ErrorCode.FORBIDDEN,
            f"externalId {hidden[0]!r} belongs to content this key cannot see",
            field="externalId",
        )
