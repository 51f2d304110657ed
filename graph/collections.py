"""Collection nodes: the root every tenant's graph hangs from."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.driver import GraphStore


@dataclass(frozen=True)
class GraphCollection:
    name: str
    projected_at: datetime


async def upsert_collections(graph: GraphStore, rows: list[dict[str, Any]]) -> None:
    """Idempotent: replaying the same rows leaves the graph unchanged."""
    await graph.write(
        "UNWIND $rows AS row"
        " MERGE (c:Collection {id: row.id})"
        " ON CREATE SET c.tenant_id = row.tenant_id, c.projected_at = datetime()"
        " SET c.name = row.name",
        rows=rows,
    )


async def find_collection(
    graph: GraphStore, tenant_id: str, collection_id: str
) -> GraphCollection | None:
    records = await graph.read(
        "MATCH (c:Collection {id: $id, tenant_id: $tenant_id})"
        " RETURN c.name AS name, c.projected_at AS projected_at",
        id=collection_id,
        tenant_id=tenant_id,
    )
    if not records:
        return None
    record = records[0]
    return GraphCollection(name=record["name"], projected_at=record["projected_at"].to_native())
