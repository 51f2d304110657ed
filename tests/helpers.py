"""Test helpers shared across modules: SQL reads, collections and ingestion via GraphQL."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg

from app.localdb.stack import Stack
from tests.graphql_client import GraphQLClient

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
