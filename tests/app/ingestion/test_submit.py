"""Ingestion through GraphQL: documents become chunks, sections, postings and vectors."""

from __future__ import annotations

import base64
import uuid
from typing import Any

import pytest

from app.localdb.stack import Stack
from tests.graphql_client import GraphQLClient
from tests.helpers import CONTRACT, INGEST, ingest, new_collection, rows

pytestmark = pytest.mark.integration


def test_document_is_indexed_with_sections_chunks_postings_vectors(
    gql: GraphQLClient, stack: Stack
) -> None:
    collection = new_collection(gql)
    result = ingest(
        gql,
        collection,
        {
            "externalId": "msa",
            "title": "MSA",
            "contentType": "text/markdown",
            "text": CONTRACT,
            "metadata": {"kind": "contract"},
        },
    )
    assert result["job"]["done"] and result["job"]["indexed"] == 1
    outcome = result["outcomes"][0]
    assert outcome["status"] == "INDEXED" and outcome["chunks"] > 0
    doc = gql.data(
        """query($id: ID!) { document(id: $id) { externalId title status
        contentType metadata chunkCount sections { label path charStart charEnd } } }""",
        id=outcome["documentId"],
    )["document"]
    # The graph projector may already have taken it on: indexed, and perhaps graphed too.
    assert doc["status"] in ("INDEXED", "GRAPHED") and doc["metadata"] == {"kind": "contract"}
    paths = [s["path"] for s in doc["sections"]]
    assert "Chapter 2 > Section 2.3" in paths
    assert "Appendix A" in [s["label"] for s in doc["sections"]]
    section = next(s for s in doc["sections"] if s["label"] == "Section 2.3")
    assert CONTRACT[section["charStart"] :].startswith("Section 2.3 Payment")
    kinds = dict(
        rows(
            stack,
            "SELECT kind, count(*) FROM chunks WHERE document_id = %s GROUP BY kind",
            outcome["documentId"],
        )
    )
    assert kinds["main"] >= 1 and kinds["small"] >= 1 and kinds["large"] >= 1
    vectors = rows(
        stack,
        "SELECT vector_dims(embedding) FROM chunks WHERE document_id = %s AND kind = 'small'",
        outcome["documentId"],
    )
    assert {v[0] for v in vectors} == {384}
    assert rows(
        stack,
        "SELECT count(*) FROM postings p JOIN chunks c ON c.id = p.chunk_id"
        " WHERE c.document_id = %s AND p.term = 'invoic'",
        outcome["documentId"],
    ) == [(1,)]


def test_offsets_are_code_points(gql: GraphQLClient, stack: Stack) -> None:
    collection = new_collection(gql)
    text = "שלום 👋 עולם.\n\nSection 1 Scope\n\nThe scope is 🌍 wide."
    outcome = ingest(gql, collection, {"externalId": "u", "text": text})["outcomes"][0]
    ((start, end, content),) = rows(
        stack,
        "SELECT char_start, char_end, content FROM chunks"
        " WHERE document_id = %s AND kind = 'main' ORDER BY ordinal"
        " LIMIT 1",
        outcome["documentId"],
    )
    assert text[start:end] == content


def test_same_content_is_unchanged_and_changed_content_replaces(
    gql: GraphQLClient, stack: Stack
) -> None:
    collection = new_collection(gql)
    doc = {"externalId": "policy", "text": "Staff get twenty five days of leave."}
    first = ingest(gql, collection, doc)["outcomes"][0]
    again = ingest(gql, collection, doc)["outcomes"][0]
    assert again["status"] == "UNCHANGED" and again["documentId"] == first["documentId"]
    changed = ingest(gql, collection, {**doc, "text": "Staff get thirty days of paid leave."})
    assert changed["outcomes"][0]["status"] == "INDEXED"
    terms = {
        r[0]
        for r in rows(
            stack,
            "SELECT p.term FROM postings p JOIN chunks c"
            " ON c.id = p.chunk_id WHERE c.document_id = %s",
            first["documentId"],
        )
    }
    assert "thirti" in terms and "twenti" not in terms
    assert rows(stack, "SELECT version FROM documents WHERE id = %s", first["documentId"]) == [(2,)]
    kinds = rows(
        stack,
        "SELECT kind FROM graph_outbox WHERE payload->>'document_id' = %s",
        first["documentId"],
    )
    assert [k[0] for k in kinds].count("document.upsert") == 2


@pytest.mark.parametrize(
    ("doc", "code"),
    [
        ({"externalId": "e", "text": "   \n\t "}, "EMPTY_DOCUMENT"),
        ({"externalId": "e", "text": ""}, "EMPTY_DOCUMENT"),
        ({"externalId": "b", "text": "PK\x03\x04\x00\x00binary"}, "INVALID_ENCODING"),
        (
            {
                "externalId": "u",
                "data": base64.b64encode(b"\xff\xfe\xfa bad").decode(),
                "contentType": "text/plain",
            },
            "INVALID_ENCODING",
        ),
        (
            {"externalId": "n", "data": "not base64!!", "contentType": "text/plain"},
            "INVALID_ENCODING",
        ),
        (
            {"externalId": "t", "text": "hello", "contentType": "application/msword"},
            "UNSUPPORTED_CONTENT_TYPE",
        ),
        ({"path": "notes.docx", "text": "hello"}, "UNSUPPORTED_CONTENT_TYPE"),
        (
            {
                "externalId": "p",
                "data": base64.b64encode(b"%PDF-1.4 garbage").decode(),
                "contentType": "application/pdf",
            },
            "PARSE_FAILED",
        ),
        ({"externalId": "m", "text": "hello", "metadata": [1, 2]}, "BAD_USER_INPUT"),
        ({"text": "no identity"}, "BAD_USER_INPUT"),
    ],
)
def test_bad_document_fails_alone(gql: GraphQLClient, doc: dict[str, Any], code: str) -> None:
    collection = new_collection(gql)
    good = {"externalId": "good", "text": "A perfectly fine document about leave policy."}
    result = ingest(gql, collection, doc, good)
    statuses = [(o["status"], o["code"]) for o in result["outcomes"]]
    assert statuses == [("FAILED", code), ("INDEXED", None)]
    assert result["outcomes"][0]["message"]
    assert result["job"]["failed"] == 1 and result["job"]["indexed"] == 1


def test_too_large_document(http: Any, stack: Stack, tenant_key: str) -> None:
    from schema.serving import running_server  # a server with a tiny size limit

    small = Stack(
        stack.data_dir,
        type(stack.settings).from_env({**stack.env(), "TRELLIS_MAX_DOCUMENT_BYTES": "100"}),
        stack.endpoints,
        stack.neo4j,
        stack.postgres,
    )
    import httpx

    with running_server(small) as url, httpx.Client(base_url=url, timeout=60) as client:
        gql = GraphQLClient(client, tenant_key)
        collection = new_collection(gql)
        result = ingest(
            gql,
            collection,
            {"externalId": "big", "text": "x " * 100},
            {"externalId": "ok", "text": "small enough"},
        )
    assert [o["code"] for o in result["outcomes"]] == ["DOCUMENT_TOO_LARGE", None]


def test_unknown_or_foreign_collection_is_not_found(
    gql: GraphQLClient, http: Any, stack: Stack
) -> None:
    from app.localdb.stack import make_key

    collection = new_collection(gql)
    other = GraphQLClient(http, make_key(stack, f"other-{uuid.uuid4().hex[:6]}"))
    docs = [{"externalId": "x", "text": "hello"}]
    assert gql.error_code(INGEST, c="missing", docs=docs) == "NOT_FOUND"
    assert other.error_code(INGEST, c=collection, docs=docs) == "NOT_FOUND"


def test_documents_connection_pages(gql: GraphQLClient) -> None:
    collection = new_collection(gql)
    ingest(
        gql,
        collection,
        *[{"externalId": f"d{i}", "text": f"Document number {i}."} for i in range(5)],
    )
    query = """query($c: String!, $after: String) { documents(collection: $c, first: 2,
        after: $after) { edges { node { externalId } } pageInfo { hasNextPage endCursor } } }"""
    seen, after = [], None
    while True:
        page = gql.data(query, c=collection, after=after)["documents"]
        seen += [e["node"]["externalId"] for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert sorted(seen) == [f"d{i}" for i in range(5)]
    assert gql.error_code(query, c=collection, after="garbage") == "BAD_USER_INPUT"


def test_a_job_reports_bytes_and_graph_failures(gql: GraphQLClient) -> None:
    name = new_collection(gql)
    texts = ["Staff get 25 days of leave.", "Incidents are reviewed weekly."]
    docs = [{"externalId": f"d{i}", "text": t} for i, t in enumerate(texts)]
    job_id = ingest(gql, name, *docs)["job"]["id"]
    job = gql.data(
        "query($id: ID!) { job(id: $id) { bytes bytesDone graphFailed pending } }", id=job_id
    )["job"]
    size = sum(len(t.encode()) for t in texts)
    assert job == {"bytes": size, "bytesDone": size, "graphFailed": 0, "pending": 0}
