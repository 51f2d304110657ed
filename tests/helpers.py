"""Test helpers shared across modules: SQL reads, collections and ingestion via GraphQL."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import psycopg

from app.localdb.stack import Stack
from store.pool import Pool, open_pool
from tests.graphql_client import GraphQLClient

T = TypeVar("T")

INGEST = """mutation($c: String!, $docs: [DocumentInput!]!) {
  ingestDocuments(collection: $c, documents: $docs, wait: true) {
    job { id total indexed unchanged failed pending done chunks }
    outcomes { index externalId status documentId chunks code message }
  }
}"""

CONTRACT = """# Master Services Agreement

Chapter 2 Obligations

Section 2.3 Payment

Invoices are due within thirty days of receipt. Late payments accrue interest.

4.2.1 Termination for convenience

Either party may terminate this agreement with ninety days written notice.

Appendix A Pricing

The monthly fee is fixed for the first year.
"""


def new_collection(gql: GraphQLClient) -> str:
    name = f"c-{uuid.uuid4().hex[:8]}"
    gql.data("mutation($n: String!) { createCollection(name: $n) { id } }", n=name)
    return name


def ingest(gql: GraphQLClient, collection: str, *docs: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = gql.data(INGEST, c=collection, docs=list(docs))["ingestDocuments"]
    return result


def rows(stack: Stack, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with psycopg.connect(stack.endpoints.postgres_url) as conn:
        return conn.execute(sql, params).fetchall()


def with_pool(stack: Stack, work: Callable[[Pool], Awaitable[T]]) -> T:
    """`work` run with a small pool of the stack's Postgres, closed after."""

    async def run() -> T:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 4)
        try:
            return await work(pool)
        finally:
            await pool.close()

    return asyncio.run(run())
