"""The graph walk's mentions: in memory when this process holds a current copy of the
collection's, else read from Postgres step by step (store/subgraph.py).

A walk reads four or five steps of mentions; from Postgres each is a statement the server
prepares, sends and decodes, and together they were the largest share of a search's CPU
(bench/RESULTS.md, the load). The copy is dated by the collection's statistics' version and
its graph version (store/mentions.graph_version): any change to the mentions moves one, and
a search then reads Postgres while one background task reads the copy again
(app/search/_built.py). A key with content scopes always reads Postgres, which keeps the
mentions of documents it may not see out of its walk.
"""

from __future__ import annotations

from app.search._built import BuiltCopies, Key
from app.settings import CopySettings
from retrieval.mention_graph import MentionGraph
from store import mentions
from store.bm25 import Stats
from store.pool import Conn, Pool
from store.scope import Scope
from store.subgraph import Steps, held_steps, sql_steps
from store.tenants import Tenant


class MentionGraphs:
    def __init__(self, pool: Pool, limits: CopySettings) -> None:
        self._pool = pool
        self._graphs = BuiltCopies("mention graph", self._build, mentions.graph_version, limits)

    def steps(self, conn: Conn, tenant: Tenant, scope: Scope, stats: Stats | None) -> Steps:
        """Where the walk of one collection reads its mentions: `conn` unless a current copy
        is held."""
        graph = self.held(tenant, scope, stats)
        return sql_steps(conn, tenant) if graph is None else held_steps(graph)

    async def fewest_documents(
        self, conn: Conn, tenant: Tenant, scope: Scope, stats: Stats | None, seeds: dict[str, str]
    ) -> int | None:
        """store/mentions.fewest_documents, counted in the copy when one is current."""
        graph = self.held(tenant, scope, stats)
        if graph is None:
            return await mentions.fewest_documents(conn, tenant, seeds)
        return graph.fewest_documents(seeds, mentions.MOST_DOCUMENTS)

    async def settle(self) -> None:
        """Wait for the builds in flight (for tests and benchmarks)."""
        await self._graphs.settle()

    async def close(self) -> None:
        await self._graphs.close()

    def held(self, tenant: Tenant, scope: Scope, stats: Stats | None) -> MentionGraph | None:
        """The collection's mentions if held and current for this key; else None, and a
        build starts unless the key has content scopes or the collection is small."""
        return None if tenant.content_scopes else self._graphs.current(scope, stats)

    async def _build(self, key: Key) -> MentionGraph | None:
        async with self._pool.connection() as conn:
            return await mentions.held_graph(conn, *key)
