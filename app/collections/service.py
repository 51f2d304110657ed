"""Collections: create, list and look up, always within one tenant."""

from __future__ import annotations

import asyncio
import logging
import unicodedata

from app.errors import ErrorCode, TrellisError
from app.knowledge.projection import GraphProjector
from app.models.embedders import Embedders
from app.models.minilm import MODEL_ID as LOCAL_MODEL
from graph.collections import GraphCollection as GraphCollection
from graph.collections import find_collection, upsert_collections
from graph.driver import GraphStore
from store import collections as rows
from store import outbox
from store.collections import Collection as Collection
from store.pool import Pool
from store.tenants import Tenant

MAX_NAME_LENGTH = 200
log = logging.getLogger(__name__)


class Collections:
    def __init__(
        self, pool: Pool, graph: GraphStore, projector: GraphProjector, embedders: Embedders
    ) -> None:
        self._pool = pool
        self._graph = graph
        self._projector = projector
        self._embedders = embedders

    async def create(self, tenant: Tenant, name: str, model: str | None = None) -> Collection:
        """A new collection pinned to `model` (default: the local MiniLM) for its whole life."""
        name = validate_name(name)
        model = model or LOCAL_MODEL
        if model not in self._embedders.model_ids():
            self._embedders.get(model)  # raises EMBEDDING_PROFILE_MISMATCH naming what exists
        dimension = await asyncio.to_thread(self._embedders.dimension, model)
        async with self._pool.connection() as conn, conn.transaction():
            try:
                created = await rows.insert(conn, tenant.id, name, model, dimension)
            except rows.DuplicateCollection:
                raise TrellisError(
                    ErrorCode.ALREADY_EXISTS, f"a collection named {name!r} already exists"
                ) from None
            await outbox.enqueue(
                conn, tenant.id, created.id, "collection.upsert", _graph_row(created)
            )
        await self._project_now(created)
        return created

    async def _project_now(self, created: Collection) -> None:
        """Put the node in the graph at once when Neo4j answers; the outbox row stays the
        guarantee either way."""
        try:
            await upsert_collections(self._graph, [_graph_row(created)])
        except Exception:
            log.warning("collection %s will reach the graph later", created.id, exc_info=True)
        self._projector.wake()

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

    async def set_answer_policy(self, tenant: Tenant, name: str, policy: str) -> Collection:
        """What answers over this collection do with an unsupported claim."""
        target = await self.get(tenant, name)
        async with self._pool.connection() as conn:
            await rows.set_answer_policy(conn, tenant.id, target.id, policy)
        return await self.get(tenant, name)

    async def graph_view(self, collection: Collection) -> GraphCollection | None:
        return await find_collection(self._graph, str(collection.tenant_id), str(collection.id))


def validate_name(name: str) -> str:
    cleaned = unicodedata.normalize("NFC", name).strip()
    if not cleaned or len(cleaned) > MAX_NAME_LENGTH:
        raise TrellisError(
            ErrorCode.BAD_USER_INPUT,
            f"a collection name must be 1 to {MAX_NAME_LENGTH} characters",
            field="name",
        )
    if any(unicodedata.category(ch).startswith("C") for ch in cleaned):
        raise TrellisError(
            ErrorCode.BAD_USER_INPUT,
            "a collection name cannot hold control characters",
            field="name",
        )
    return cleaned


def _graph_row(collection: Collection) -> dict[str, str]:
    return {
        "id": str(collection.id),
        "tenant_id": str(collection.tenant_id),
        "name": collection.name,
    }
