"""Collections: create, list and look up, always within one tenant."""

from __future__ import annotations

import logging
import unicodedata

from app.errors import ErrorCode, TrellisError
from app.projection import GraphProjector
from graph.collections import GraphCollection, find_collection
from graph.driver import GraphStore
from store import collections as rows
from store import outbox
from store.collections import Collection
from store.pool import Pool
from store.tenants import Tenant

log = logging.getLogger(__name__)

# The local embedder's profile; the ingestion issue adds configurable providers.
DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
DEFAULT_EMBEDDING_DIM = 384
MAX_NAME_LENGTH = 200


class Collections:
    def __init__(self, pool: Pool, graph: GraphStore, projector: GraphProjector) -> None:
        self._pool = pool
        self._graph = graph
        self._projector = projector

    async def create(self, tenant: Tenant, name: str) -> Collection:
        name = validate_name(name)
        async with self._pool.connection() as conn, conn.transaction():
            try:
                created = await rows.insert(
                    conn, tenant.id, name, DEFAULT_EMBEDDING_MODEL, DEFAULT_EMBEDDING_DIM
                )
            except rows.DuplicateCollection:
                raise TrellisError(
                    ErrorCode.ALREADY_EXISTS, f"a collection named {name!r} already exists"
                ) from None
            await outbox.enqueue(conn, tenant.id, "collection.upsert", _graph_row(created))
        await self._project_now()
        return created

    async def list(self, tenant: Tenant) -> list[Collection]:
        async with self._pool.connection() as conn:
            return await rows.list_for_tenant(conn, tenant.id)

    async def get(self, tenant: Tenant, name: str) -> Collection:
        """The tenant's collection; another tenant's is NOT_FOUND too, so nothing leaks."""
        async with self._pool.connection() as conn:
            found = await rows.by_name(conn, tenant.id, name)
        if found is None:
            raise TrellisError(ErrorCode.NOT_FOUND, f"no collection named {name!r}")
        return found

    async def graph_view(self, collection: Collection) -> GraphCollection | None:
        return await find_collection(self._graph, str(collection.tenant_id), str(collection.id))

    async def _project_now(self) -> None:
        """Best effort: Postgres already holds the change, and the worker retries later."""
        try:
            await self._projector.drain()
        except Exception:
            log.warning("graph projection deferred", exc_info=True)


def validate_name(name: str) -> str:
    cleaned = unicodedata.normalize("NFC", name).strip()
    if not cleaned or len(cleaned) > MAX_NAME_LENGTH:
        raise TrellisError(
            ErrorCode.BAD_INPUT,
            f"a collection name must be 1 to {MAX_NAME_LENGTH} characters",
            field="name",
        )
    if any(unicodedata.category(ch).startswith("C") for ch in cleaned):
        raise TrellisError(
            ErrorCode.BAD_INPUT, "a collection name cannot hold control characters", field="name"
        )
    return cleaned


def _graph_row(collection: Collection) -> dict[str, str]:
    return {
        "id": str(collection.id),
        "tenant_id": str(collection.tenant_id),
        "name": collection.name,
    }
