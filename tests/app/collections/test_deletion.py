"""Deletes remove a document's whole index in one transaction: nothing is orphaned."""

from __future__ import annotations

import psycopg
import pytest

from app.localdb.stack import Stack
from tests.graphql_client import GraphQLClient
from tests.helpers import CONTRACT, ingest, new_collection, rows

pytestmark = pytest.mark.integration

COUNTS = {
    "documents": "SELECT count(*) FROM documents WHERE collection_id = %(c)s",
    "sections": "SELECT count(*) FROM sections s JOIN documents d ON d.id = s.document_id"
    " WHERE d.collection_id = %(c)s",
    "chunks": "SELECT count(*) FROM chunks WHERE collection_id = %(c)s",
    "links": "SELECT count(*) FROM chunk_links l JOIN chunks c ON c.id = l.window_id"
    " WHERE c.collection_id = %(c)s",
    "postings": "SELECT count(*) FROM postings WHERE collection_id = %(c)s",
    "stat_chunks": "SELECT coalesce(sum(chunk_count), 0) FROM collection_stats"
    " WHERE collection_id = %(c)s",
    "stat_terms": "SELECT coalesce(sum(term_total), 0) FROM collection_stats"
    " WHERE collection_id = %(c)s",
    "dangling_links": "SELECT count(*) FROM chunk_links l LEFT JOIN chunks c ON c.id = l.main_id"
    " WHERE c.id IS NULL",
    "dangling_postings": "SELECT count(*) FROM postings p LEFT JOIN chunks c ON c.id = p.chunk_id"
    " WHERE c.id IS NULL",
}
DELETE = """mutation($c: String!, $id: String!) {
  deleteDocument(collection: $c, externalId: $id) { deleted chunksRemoved } }"""


def counts(stack: Stack, collection_id: str) -> dict[str, int]:
    with psycopg.connect(stack.endpoints.postgres_url) as conn:
        return {
            name: int(conn.execute(sql, {"c": collection_id}).fetchone()[0])  # type: ignore[index]
            for name, sql in COUNTS.items()
        }


def collection_id(gql: GraphQLClient, name: str) -> str:
    return str(
        gql.data("query($n: String!) { collection(name: $n) { id } }", n=name)["collection"]["id"]
    )


def test_delete_leaves_nothing_behind(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    cid = collection_id(gql, name)
    ingest(gql, name, {"externalId": "keep", "text": "A document that stays. " * 40})
    before = counts(stack, cid)
    ingest(gql, name, {"externalId": "msa", "contentType": "text/markdown", "text": CONTRACT})
    during = counts(stack, cid)
    assert during["chunks"] > before["chunks"] and during["postings"] > before["postings"]
    result = gql.data(DELETE, c=name, id="msa")["deleteDocument"]
    assert result["deleted"] and result["chunksRemoved"] == during["chunks"] - before["chunks"]
    assert counts(stack, cid) == before
    outbox = rows(
        stack,
        "SELECT count(*) FROM graph_outbox WHERE kind = 'document.delete'"
        " AND tenant_id = (SELECT tenant_id FROM collections WHERE id = %s)",
        cid,
    )
    assert outbox == [(1,)]


def test_deleting_a_missing_document_reports_it(gql: GraphQLClient) -> None:
    name = new_collection(gql)
    assert gql.data(DELETE, c=name, id="nope")["deleteDocument"] == {
        "deleted": False,
        "chunksRemoved": 0,
    }


def test_delete_collection_removes_everything(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    cid = collection_id(gql, name)
    ingest(gql, name, {"externalId": "msa", "contentType": "text/markdown", "text": CONTRACT})
    assert gql.data("mutation($n: String!) { deleteCollection(name: $n) }", n=name)
    assert all(value == 0 for value in counts(stack, cid).values())
    assert rows(
        stack,
        "SELECT count(*) FROM ingest_items i JOIN ingest_jobs j ON j.id = i.job_id"
        " WHERE j.collection_id = %s",
        cid,
    ) == [(0,)]
    assert (
        gql.error_code("query($n: String!) { collection(name: $n) { id } }", n=name) == "NOT_FOUND"
    )
