"""The documents one search may read: one tenant's collection, as the calling key's content
scopes let it see, narrowed by filters.

The tenant, the collection and the content scopes are in every clause; a filter, ANDed
with them, can only narrow them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.types.json import Jsonb

from store.tenants import carrying


@dataclass(frozen=True)
class RangeFilter:
    key: str
    at_least: Any = None
    at_most: Any = None


@dataclass(frozen=True)
class Scope:
    tenant_id: UUID
    collection_id: UUID
    equals: dict[str, Any] = field(default_factory=dict)  # metadata key -> value
    ranges: tuple[RangeFilter, ...] = ()
    document_ids: tuple[UUID, ...] | None = None
    created_from: datetime | None = None
    created_to: datetime | None = None
    # The calling key's content scopes; a document needs one of them. Empty: no narrowing.
    content_scopes: tuple[str, ...] = ()

    @property
    def narrowed(self) -> bool:
        return bool(
            self.content_scopes
            or self.equals
            or self.ranges
            or self.document_ids is not None
            or self.created_from
            or self.created_to
        )

    def named_documents_clause(self, alias: str = "d") -> tuple[str, dict[str, Any]]:
        """The same conditions with named placeholders (%(scope_0)s, ...), for named queries."""
        clause, params = self.documents_clause(alias)
        names = [f"scope_{i}" for i in range(len(params))]
        return clause % tuple(f"%({n})s" for n in names), dict(zip(names, params, strict=True))

    def documents_clause(self, alias: str = "d") -> tuple[str, list[Any]]:
        """SQL conditions on a documents row `alias`, and their parameters."""
        sql = [f"{alias}.tenant_id = %s", f"{alias}.collection_id = %s"]
        params: list[Any] = [self.tenant_id, self.collection_id]
        if self.equals:
            sql.append(f"{alias}.metadata @> %s")
            params.append(Jsonb(self.equals))
        for r in self.ranges:
            clause, values = _range(alias, r)
            sql.append(clause)
            params += values
        if self.document_ids is not None:
            sql.append(f"{alias}.id = ANY(%s)")
            params.append(list(self.document_ids))
        if self.created_from is not None:
            sql.append(f"{alias}.created_at >= %s")
            params.append(self.created_from)
        if self.created_to is not None:
            sql.append(f"{alias}.created_at < %s")
            params.append(self.created_to)
        seen, seen_params = carrying(self.content_scopes, alias)
        return " AND ".join(sql) + seen, params + seen_params


def _range(alias: str, r: RangeFilter) -> tuple[str, list[Any]]:
    """Numbers compare as numbers (only against number values), text as text."""
    bound = r.at_least if r.at_least is not None else r.at_most
    numeric = isinstance(bound, int | float) and not isinstance(bound, bool)
    value = (
        f"(CASE WHEN jsonb_typeof({alias}.metadata -> %s) = 'number'"
        f" THEN ({alias}.metadata ->> %s)::numeric END)"
        if numeric
        else f"({alias}.metadata ->> %s)"
    )
    keys = [r.key, r.key] if numeric else [r.key]
    sql, params = [], []
    for operator, limit in ((">=", r.at_least), ("<=", r.at_most)):
        if limit is not None:
            sql.append(f"{value} {operator} %s" + ("::numeric" if numeric else ""))
            params += [*keys, limit if numeric else str(limit)]
    return "(" + " AND ".join(sql) + ")", params
