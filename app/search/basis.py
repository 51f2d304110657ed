"""What a search reads of a collection once, before its legs run: the vocabulary rules that
rewrite its keyword terms, the BM25 statistics, whose version moves with every change to
the collection's index, and how many of its documents wait for the graph. A search of one
collection runs three keyword searches, a dense search and a coverage count; each used to
read these rows again.

The version also keeps a per-process answer to whether the collection is small enough for
an exact vector scan: counting its windows took more of Postgres's time than any other
statement of a search but the dense search itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from app._recent import Recent
from retrieval.vocabulary import VocabularyRule
from store import bm25, search, vocabulary
from store.bm25 import Stats
from store.pool import Conn
from store.scope import Scope

KNOWN_COLLECTIONS = 4096  # collections whose size is remembered, the least recent forgotten


@dataclass(frozen=True)
class SearchBasis:
    rules: list[VocabularyRule]
    stats: Stats | None  # None: nothing indexed yet
    graph_pending: int  # documents in scope indexed but not yet in the graph


async def read_basis(conn: Conn, scope: Scope) -> SearchBasis:
    key = (scope.tenant_id, scope.collection_id)
    rules, stats = await vocabulary.list_rules(conn, *key), await bm25.stats(conn, *key)
    return SearchBasis(rules, stats, await search.graph_pending(conn, scope))


class ExactScans:
    """Whether a scope is scanned exactly (store/search.is_small). For a whole collection the
    answer holds until its statistics' version moves; a filtered scope is counted each time."""

    def __init__(self) -> None:
        self._known: Recent[tuple[UUID, UUID], tuple[int, bool]] = Recent(KNOWN_COLLECTIONS)

    async def is_small(self, conn: Conn, scope: Scope, stats: Stats | None) -> bool:
        if scope.narrowed or stats is None:
            return await search.is_small(conn, scope)
        key = (scope.tenant_id, scope.collection_id)
        known = self._known.get(key)
        if known is not None and known[0] == stats.version:
            return known[1]
        small = await search.is_small(conn, scope)
        self._known.put(key, (stats.version, small))
        return small
