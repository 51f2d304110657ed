"""readSpans returns bounded text: each span cut at its limit and the request at its total,
flagged `truncated` (app/collections/spans.py)."""

from __future__ import annotations

import pytest

from app.collections import spans
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection

pytestmark = pytest.mark.integration
READ = "query($s: [SpanInput!]!) { readSpans(spans: $s) { text truncated } }"
TEXT = "The ferry leaves the north quay at dawn. " * 3


def test_spans_are_cut_at_their_limit_and_the_request_at_its_total(
    gql: GraphQLClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = new_collection(gql)
    [outcome] = ingest(gql, name, {"externalId": "ferry", "text": TEXT})["outcomes"]
    whole = {"documentId": outcome["documentId"], "unit": "FILE"}
    assert gql.data(READ, s=[whole])["readSpans"] == [{"text": TEXT, "truncated": False}]
    # The test server runs in this process: smaller limits reach it.
    monkeypatch.setattr(spans, "MAX_SPAN_CHARS", 40)
    monkeypatch.setattr(spans, "MAX_TOTAL_CHARS", 70)
    read = gql.data(READ, s=[whole, whole, whole])["readSpans"]
    assert [len(r["text"]) for r in read] == [40, 30, 0]
    assert [r["truncated"] for r in read] == [True, True, True]
    assert read[0]["text"] == TEXT[:40] and read[1]["text"] == TEXT[:30]


def test_a_chars_span_reads_only_its_characters(gql: GraphQLClient) -> None:
    name = new_collection(gql)
    [outcome] = ingest(gql, name, {"externalId": "ferry", "text": TEXT})["outcomes"]
    span = {"documentId": outcome["documentId"], "unit": "CHARS", "start": 4, "end": 9}
    assert gql.data(READ, s=[span])["readSpans"] == [{"text": "ferry", "truncated": False}]
    span["end"] = len(TEXT) + 1
    body = gql.post(READ, s=[span])
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "field": "spans[0]"}
