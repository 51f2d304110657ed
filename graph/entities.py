"""Entity lookups: by id, and by fuzzy name or alias (full-text index)."""

from __future__ import annotations

import re
from typing import Any

from graph.driver import GraphStore
from graph.temporal import carries_scope

# An entity is seen by a key narrowed to content scopes only when one of its mentions is in
# content carrying one of them.
_SEEN = (
    " AND (size($content_scopes) = 0 OR EXISTS { MATCH (e)-[m:MENTIONED_IN]->()"
    f" WHERE {carries_scope('m')} }})"
)

_TERM = re.compile(r"\w+")
_ENTITY_FIELDS = (
    "e.id AS id, e.name AS name, e.type AS type, e.aliases AS aliases,"
    " e.mention_count AS mention_count, e.collection_id AS collection_id"
)


async def get_entity(
    graph: GraphStore, tenant_id: str, entity_id: str, content_scopes: tuple[str, ...]
) -> dict[str, Any] | None:
    found = await graph.read(
        "MATCH (e:Entity {id: $id, tenant_id: $tenant}) WHERE true"
        + _SEEN
        + " RETURN "
        + _ENTITY_FIELDS,
        id=entity_id,
        tenant=tenant_id,
        content_scopes=list(content_scopes),
    )
    return found[0] if found else None


async def search_entities(
    graph: GraphStore,
    tenant_id: str,
    collection_id: str,
    query: str,
    types: list[str],
    first: int,
    content_scopes: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    """Best matches first. Each query word matches exactly, as a prefix, or within one edit."""
    lucene = lucene_query(query)
    if not lucene:
        return []
    return await graph.read(
        "CALL db.index.fulltext.queryNodes('entity_names', $q) YIELD node AS e, score"
        " WHERE e.tenant_id = $tenant AND e.collection_id = $collection"
        " AND (size($types) = 0 OR e.type IN $types)"
        + _SEEN
        + " RETURN "
        + _ENTITY_FIELDS
        + ", score ORDER BY score DESC, e.mention_count DESC"
        " LIMIT $first",
        q=lucene,
        tenant=tenant_id,
        collection=collection_id,
        types=types,
        first=first,
        content_scopes=list(content_scopes),
    )


def lucene_query(text: str) -> str:
    """User words as Lucene terms: word characters only, so no query syntax gets through."""
    words = _TERM.findall(text.lower())[:16]
    return " ".join(f"({w} OR {w}* OR {w}~1)" for w in words)


async def entities_by_id(
    graph: GraphStore, tenant_id: str, ids: list[str], content_scopes: tuple[str, ...] = ()
) -> dict[str, dict[str, Any]]:
    rows = await graph.read(
        "MATCH (e:Entity) WHERE e.id IN $ids AND e.tenant_id = $tenant"
        + _SEEN
        + " RETURN "
        + _ENTITY_FIELDS,
        ids=ids,
        tenant=tenant_id,
        content_scopes=list(content_scopes),
    )
    return {row["id"]: row for row in rows}
