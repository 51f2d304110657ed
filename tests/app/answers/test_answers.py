"""Answers over the demo corpus through GraphQL: the extractive composer on real databases."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack
from app.settings import PROJECT_ROOT
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.graphql_ws import open_ws, subscribe
from tests.helpers import ingest, new_collection

pytestmark = pytest.mark.integration

ANSWER = """query($input: AnswerInput!) { answer(input: $input) {
  text html language direction abstained abstainReason queryUsed degraded missingLegs
  brief { answer shortAnswer confidence settled gaps
    support { ref text verified span { documentId unit start end } }
    context { ref text verified } otherSide { ref text verified } }
  claims { text refs status reason }
  sources { ref cited score discoveryMethods document { id title path contentType }
    span { documentId unit start end } }
  usage { model promptTokens completionTokens passagesRead timeToFirstDeltaMs latencyMs }
  verification { policy quotesChecked quotesVerified claimsChecked claimsSupported
    claimsCaveated claimsRemoved }
} }"""


def demo_documents() -> list[dict[str, Any]]:
    paths = sorted(p for p in (PROJECT_ROOT / "demo").rglob("*") if p.is_file())
    return [_document(p) for p in paths]


def _document(path: Path) -> dict[str, Any]:
    kind = {".md": "text/markdown", ".html": "text/html"}.get(path.suffix, "text/plain")
    return {
        "externalId": str(path.relative_to(PROJECT_ROOT)),
        "text": path.read_text(),
        "contentType": kind,
    }


@pytest.fixture(scope="module")
def demo(http: httpx.Client, stack: Stack, tenant_key_module: str) -> tuple[GraphQLClient, str]:
    """The demo corpus, once graphed: answers are tested against every leg, not a race."""
    gql = GraphQLClient(http, tenant_key_module)
    return gql, graphed_collection(gql, stack, *demo_documents())


def ask(demo: tuple[GraphQLClient, str], query: str, **extra: Any) -> dict[str, Any]:
    gql, name = demo
    answer: dict[str, Any] = gql.data(
        ANSWER, input={"collections": [name], "query": query, **extra}
    )["answer"]
    return answer


def test_who_names_the_person_with_a_verified_quote(demo: tuple[GraphQLClient, str]) -> None:
    answer = ask(demo, "Who was the incident commander of INC-2041?")
    assert answer["brief"]["shortAnswer"] == "Priya Natarajan"
    assert not answer["abstained"]
    assert re.search(r"\[\[SRC:\d{4}\]\]$", answer["text"])
    support = answer["brief"]["support"]
    assert support and all(q["verified"] for q in support)
    assert "Priya Natarajan" in support[0]["text"]
    cited = [s for s in answer["sources"] if s["cited"]]
    assert cited and cited[0]["document"]["path"].endswith("INC-2041.md")
    assert answer["language"] == "en" and answer["direction"] == "LTR"
    assert answer["verification"]["claimsSupported"] == answer["verification"]["claimsChecked"]


def test_the_reader_s_span_is_the_short_answer_with_its_confidence(
    demo: tuple[GraphQLClient, str],
) -> None:
    answer = ask(demo, "Who reported the certificate failure?")
    brief = answer["brief"]
    assert brief["shortAnswer"] == "Harbor Freight Partners"
    assert 0.4 <= brief["confidence"] <= 1.0
    cited = [s for s in answer["sources"] if s["cited"]]
    assert cited[0]["document"]["path"].endswith("INC-2077.txt")


def test_how_many_gives_the_number(demo: tuple[GraphQLClient, str]) -> None:
    answer = ask(demo, "How many days of paid annual leave do full-time employees accrue?")
    assert "25" in (answer["brief"]["shortAnswer"] or "")
    assert "25 days" in answer["text"]


def test_a_comparison_cites_both_sides(demo: tuple[GraphQLClient, str]) -> None:
    answer = ask(demo, "Which incident came first, INC-2041 or INC-2077?")
    assert answer["brief"]["shortAnswer"] == "INC-2041"
    paths = {s["document"]["path"] for s in answer["sources"] if s["cited"]}
    assert any(p.endswith("INC-2041.md") for p in paths)
    assert any(p.endswith("INC-2077.txt") for p in paths)


def test_hebrew_is_answered_in_hebrew_right_to_left(demo: tuple[GraphQLClient, str]) -> None:
    answer = ask(demo, "כמה ימי חופשה שנתית צובר עובד במשרה מלאה?")
    assert answer["language"] == "he" and answer["direction"] == "RTL"
    assert "25" in (answer["brief"]["shortAnswer"] or "")
    assert 'dir="rtl"' in answer["html"] and "<bdi>25</bdi>" in answer["html"]
    cited = [s for s in answer["sources"] if s["cited"]]
    assert cited[0]["document"]["path"].endswith("leave-procedure-he.md")


def test_japanese_is_answered_outside_the_reader_s_languages(
    demo: tuple[GraphQLClient, str],
) -> None:
    answer = ask(demo, "正社員の年次有給休暇は何日ですか？")
    assert answer["language"] == "ja" and answer["direction"] == "LTR"
    assert answer["brief"]["confidence"] is None
    assert "25" in (answer["brief"]["shortAnswer"] or "")
    assert "「" in answer["text"]


def test_a_question_the_corpus_cannot_answer_abstains(demo: tuple[GraphQLClient, str]) -> None:
    answer = ask(demo, "What colour is the company's logo on the delivery vans?")
    assert answer["abstained"] and answer["abstainReason"] == "NO_CONTEXT"
    assert "[[SRC:" not in answer["text"]
    assert answer["claims"] == [] and answer["brief"]["support"] == []


def test_a_follow_up_becomes_a_standalone_query(demo: tuple[GraphQLClient, str]) -> None:
    history = [
        {"role": "USER", "content": "Who was the incident commander of INC-2077?"},
        {"role": "ASSISTANT", "content": "Jonas Weber led it [[SRC:0001]]."},
    ]
    answer = ask(demo, "Which action item is he the owner of?", history=history)
    assert answer["queryUsed"] == "Which action item is Jonas Weber the owner of?"
    assert any("Jonas Weber" in q["text"] for q in answer["brief"]["support"])


@pytest.mark.parametrize("mode", ["ALL", "CITED", "NONE"])
def test_sources_modes(demo: tuple[GraphQLClient, str], mode: str) -> None:
    answer = ask(demo, "Who was the incident commander of INC-2041?", sources=mode)
    cited = [s["cited"] for s in answer["sources"]]
    if mode == "NONE":
        assert answer["sources"] == [] and "[[SRC:" not in answer["text"]
    elif mode == "CITED":
        assert cited and all(cited)
    else:
        assert cited[0] and not all(cited)
        assert cited == sorted(cited, reverse=True)


def test_answer_models_list_the_local_composer(demo: tuple[GraphQLClient, str]) -> None:
    gql, _ = demo
    models = gql.data("{ answerModels { name provider default } }")["answerModels"]
    assert models == [{"name": "extractive", "provider": "LOCAL", "default": True}]


def test_the_policy_is_set_per_collection(demo: tuple[GraphQLClient, str]) -> None:
    gql, name = demo
    set_policy = "mutation($c: String!) { setAnswerPolicy(collection: $c, claimPolicy: CAVEAT)"
    updated = gql.data(set_policy + " { answerPolicy } }", c=name)
    assert updated["setAnswerPolicy"]["answerPolicy"] == "CAVEAT"
    answer = ask(demo, "Who was the incident commander of INC-2041?")
    assert answer["verification"]["policy"] == "CAVEAT"
    gql.data(set_policy.replace("CAVEAT", "REMOVE") + " { answerPolicy } }", c=name)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "x" * 2001}, "query"),
        ({"topK": 0}, "topK"),
        ({"topK": 51}, "topK"),
        ({"history": [{"role": "USER", "content": "hi"}] * 21}, "history"),
        ({"history": [{"role": "USER", "content": " "}]}, "history[0].content"),
        ({"model": "no-such-model-here"}, "model"),
        ({"language": "not a language"}, "language"),
    ],
)
def test_bad_input_names_the_field(
    demo: tuple[GraphQLClient, str], extra: dict[str, Any], field: str
) -> None:
    gql, name = demo
    body = gql.post(ANSWER, input={"collections": [name], "query": "Who?", **extra})
    error = body["errors"][0]["extensions"]
    expected = "PROVIDER_NOT_CONFIGURED" if extra.get("model") else "BAD_USER_INPUT"
    assert (error["code"], error.get("field")) == (expected, field)


def test_an_answer_never_cites_another_tenant_or_collection(
    demo: tuple[GraphQLClient, str], gql: GraphQLClient
) -> None:
    other = new_collection(gql)  # another tenant, the same words
    ingest(gql, other, {"externalId": "x", "text": "Incident commander of INC-2041: Mallory."})
    own_gql, _ = demo
    elsewhere = new_collection(own_gql)
    ingest(own_gql, elsewhere, {"externalId": "y", "text": "INC-2041 was led by Trudy Bell."})
    answer = ask(demo, "Who was the incident commander of INC-2041?")
    paths = {s["document"]["path"] for s in answer["sources"]}
    assert "x" not in paths and "y" not in paths
    assert "Mallory" not in answer["text"] and "Trudy" not in answer["text"]


STREAM = """subscription($input: AnswerInput!) { answerStream(input: $input) {
  __typename
  ... on AnswerSources { sources { ref document { path } } queryUsed degraded missingLegs }
  ... on AnswerDelta { text }
  ... on AnswerClaim { text refs status reason }
  ... on AnswerDone { answer { text sources { ref cited } usage { timeToFirstDeltaMs } } }
} }"""


def test_the_stream_sends_sources_then_text_then_the_answer(
    demo: tuple[GraphQLClient, str], base_url: str, tenant_key_module: str
) -> None:
    _, name = demo
    query = "Which incident came first, INC-2041 or INC-2077?"
    with open_ws(base_url, {"X-API-Key": tenant_key_module}) as ws:
        ws.recv(timeout=10)
        messages = subscribe(ws, STREAM, timeout=60, input={"collections": [name], "query": query})
    events = [m["payload"]["data"]["answerStream"] for m in messages if m["type"] == "next"]
    kinds = [e["__typename"] for e in events]
    assert kinds[0] == "AnswerSources" and kinds[-1] == "AnswerDone"
    assert set(kinds[1:-1]) == {"AnswerDelta"}
    answer = events[-1]["answer"]
    assert "".join(e["text"] for e in events if e["__typename"] == "AnswerDelta") == answer["text"]
    assert events[0]["sources"] and answer["usage"]["timeToFirstDeltaMs"] > 0
    assert messages[-1]["type"] == "complete"


def test_a_stream_with_bad_input_ends_in_a_coded_error(
    demo: tuple[GraphQLClient, str], base_url: str, tenant_key_module: str
) -> None:
    _, name = demo
    with open_ws(base_url, {"X-API-Key": tenant_key_module}) as ws:
        ws.recv(timeout=10)
        messages = subscribe(ws, STREAM, input={"collections": [name], "query": "", "topK": 3})
    errors = [e for m in messages if m["type"] == "next" for e in m["payload"].get("errors", [])]
    assert [e["extensions"]["code"] for e in errors] == ["BAD_USER_INPUT"]


POLICY = "Card numbers must never be stored unencrypted; tokenise them at the payment gateway."


def test_an_attachment_is_searched_with_the_question(gql: GraphQLClient) -> None:
    name = new_collection(gql)
    ingest(
        gql,
        name,
        {"externalId": "policy", "title": "Payment data policy", "text": POLICY},
        {"externalId": "leave", "title": "Leave policy", "text": "Staff take 25 days of leave."},
    )
    clause = "The shop keeps customers' card numbers in a plain text file for refunds."
    history = [{"role": "USER", "content": "Here is the clause.", "attachments": [clause]}]
    query = {"collections": [name], "query": "Is this allowed?", "history": history, "topK": 1}
    answer = gql.data(ANSWER, input=query)["answer"]
    assert answer["queryUsed"] == f"Is this allowed? {clause}"
    assert [s["document"]["title"] for s in answer["sources"]] == ["Payment data policy"]
    history[0]["attachments"] = ["  "]
    extensions = gql.post(ANSWER, input=query)["errors"][0]["extensions"]
    assert extensions == {"code": "BAD_USER_INPUT", "field": "history[0].attachments[0]"}
