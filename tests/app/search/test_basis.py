"""A search's basis, read once: the collection's rules and statistics, and whether it is
scanned exactly, remembered until its index changes (app/search/basis.py)."""

from __future__ import annotations

import asyncio

import pytest

from app.localdb.stack import Stack
from app.search.basis import ExactScans, read_basis
from store import search
from store.pool import open_pool
from store.scope import Scope
from tests.app.search.test_keyword_index import _corpus
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest

pytestmark = pytest.mark.integration


def test_a_collection_stays_exact_only_until_its_index_changes(
    gql: GraphQLClient, stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, scope = _corpus(gql, stack, 3)
    windows = _answers(stack, scope, ExactScans())[1]
    monkeypatch.setattr(search, "EXACT_MAX_VECTORS", windows)  # exactly at the limit
    scans = ExactScans()
    assert _answers(stack, scope, scans)[0] is True
    assert _answers(stack, scope, scans)[0] is True  # remembered, the version unchanged
    doc = {"externalId": "more", "title": "Otter", "text": "The otter swims in the river."}
    assert ingest(gql, name, doc)["job"]["indexed"] == 1
    assert _answers(stack, scope, scans)[0] is False  # a window more: counted again


def _answers(stack: Stack, scope: Scope, scans: ExactScans) -> tuple[bool, int]:
    """The memo's answer, and the collection's windows counted directly."""

    async def run() -> tuple[bool, int]:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            async with pool.connection() as conn:
                basis = await read_basis(conn, scope)
                small = await scans.is_small(conn, scope, basis.stats)
                cursor = await conn.execute(
                    "SELECT count(*) FROM chunks WHERE collection_id = %s AND kind = 'small'",
                    (scope.collection_id,),
                )
                row = await cursor.fetchone()
                return small, int(row[0]) if row else 0
        finally:
            await pool.close()

    return asyncio.run(run())
