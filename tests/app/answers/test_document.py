"""Questions about one document (app/answers/document.py): its whole text is the context,
nothing else is searched; other tenants' documents are not found, and over-long ones are
refused with both figures."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from app.localdb.stack import Stack, make_key
from tests.graphql_client import GraphQLClient
from tests.graphql_ws import open_ws, subscribe
from tests.helpers import ingest, new_collection, rows

pytestmark = pytest.mark.integration

ANSWER = """query($input: DocumentAnswerInput!) { documentAnswer(input: $input) {
  text abstained brief { shortAnswer }
  sources { ref cited discoveryMethods document { id } }
  usage { passagesRead } } }"""
STREAM = """subscription($input: DocumentAnswerInput!) { documentAnswerStream(input: $input) {
  __typename ... on AnswerSources { sources { ref document { id } } }
  ... on AnswerDone { answer { text } } } }"""
REPORT = (
    "# Incident report INC-3101\n\n"
    "The payment gateway rejected card payments for 14 minutes on 3 May.\n\n"
    "## Cause\n\nAn expired intermediate certificate on the gateway's load balancer.\n\n"
    "## Follow-up\n\nOwner: Tomasz Wilk. Certificates are now renewed 30 days before expiry.\n"
)
OTHER = (
    "# Incident report INC-3102\n\n"
    "The search cluster lost a node for 40 minutes on 9 May.\n\n"
    "Owner: Amara Okafor. The node's disk had filled with logs.\n"
)


@pytest.fixture
def reports(gql: GraphQLClient) -> dict[str, str]:
    """Two reports in one collection: external id -> document id."""
    name = new_collection(gql)
    docs = [
        {"externalId": "inc-3101", "text": REPORT, "contentType": "text/markdown"},
        {"externalId": "inc-3102", "text": OTHER, "contentType": "text/markdown"},
    ]
    outcomes = ingest(gql, name, *docs)["outcomes"]
    return {o["externalId"]: o["documentId"] for o in outcomes}


def ask(gql: GraphQLClient, document: str, query: str) -> dict[str, Any]:
    answer: dict[str, Any] = gql.data(ANSWER, input={"document": document, "query": query})[
        "documentAnswer"
    ]
    return answer


def test_an_answer_reads_only_its_document(gql: GraphQLClient, reports: dict[str, str]) -> None:
    answer = ask(gql, reports["inc-3101"], "Who owns the follow-up?")
    assert not answer["abstained"] and "Tomasz Wilk" in answer["text"]
    assert {s["document"]["id"] for s in answer["sources"]} == {reports["inc-3101"]}
    assert all(s["discoveryMethods"] == [] for s in answer["sources"])  # read, not searched
    assert answer["usage"]["passagesRead"] == len(answer["sources"])
    other = ask(gql, reports["inc-3102"], "Who owns the follow-up?")
    assert "Tomasz" not in other["text"]  # the other report is never read for it


def test_the_stream_sends_the_document_then_the_answer(
    gql: GraphQLClient, reports: dict[str, str], base_url: str, tenant_key: str
) -> None:
    query = {"document": reports["inc-3101"], "query": "What caused the incident?"}
    with open_ws(base_url, {"X-API-Key": tenant_key}) as ws:
        ws.recv(timeout=10)
        messages = subscribe(ws, STREAM, timeout=60, input=query)
    events = [m["payload"]["data"]["documentAnswerStream"] for m in messages if m["type"] == "next"]
    assert events[0]["__typename"] == "AnswerSources" and events[-1]["__typename"] == "AnswerDone"
    assert {s["document"]["id"] for s in events[0]["sources"]} == {reports["inc-3101"]}
    assert "certificate" in events[-1]["answer"]["text"]


def test_another_tenants_document_is_not_found(
    gql: GraphQLClient, reports: dict[str, str], stack: Stack
) -> None:
    other_gql = GraphQLClient(gql.http, make_key(stack, f"other-{uuid.uuid4().hex[:8]}"))
    for document in (reports["inc-3101"], "00000000-0000-0000-0000-000000000000", "nonsense"):
        body = other_gql.post(ANSWER, input={"document": document, "query": "Who owns it?"})
        assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"


def test_a_document_over_the_cap_is_refused_with_both_figures(gql: GraphQLClient) -> None:
    name = new_collection(gql)
    paragraph = "The relay station logged a routine reading of its north antenna. "
    text = "\n\n".join(f"Entry {n}. {paragraph * 3}" for n in range(400))  # about 80,000
    [outcome] = ingest(gql, name, {"externalId": "log", "text": text})["outcomes"]
    body = gql.post(ANSWER, input={"document": outcome["documentId"], "query": "What was read?"})
    [error] = body["errors"]
    extensions = error["extensions"]
    assert extensions["code"] == "DOCUMENT_TOO_LONG" and extensions["field"] == "document"
    assert (extensions["characters"], extensions["limit"]) == (len(text), 75_000)
    assert str(len(text)) in error["message"] and "75000" in error["message"]


def test_no_search_is_logged_for_a_document_answer(
    gql: GraphQLClient, reports: dict[str, str], stack: Stack
) -> None:
    before = rows(stack, "SELECT count(*) FROM search_logs")[0][0]
    ask(gql, reports["inc-3102"], "How long was the node lost?")
    assert rows(stack, "SELECT count(*) FROM search_logs")[0][0] == before
