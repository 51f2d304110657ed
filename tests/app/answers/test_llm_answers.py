"""Answers through an OpenAI-compatible LLM (a local fake that streams like one): the same
contract as the extractive composer, with verification between the model and the client."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from app.localdb.scripted_llm import Reply, ScriptedLlm, ref_of, scripted_llm
from app.localdb.stack import Stack, make_key
from schema.serving import running_server
from tests.app.answers.test_answers import ANSWER, STREAM
from tests.graphql_client import GraphQLClient
from tests.graphql_ws import open_ws, subscribe
from tests.helpers import ingest, new_collection, rows

pytestmark = pytest.mark.integration

MODEL = "fake-chat"
ANSWER_USAGE = "query($input: AnswerInput!) { answer(input: $input) { text usage { credits } } }"
REPORT = (
    "# Incident report INC-2041\n\nIncident commander: Priya Natarajan.\n\n"
    "Writes failed for 2 minutes; 412 API requests returned errors.\n"
)


def honest(body: dict[str, Any]) -> list[str]:
    ref = ref_of(body, "Priya Natarajan")
    return [
        "Priya Natarajan was the ",
        f"incident commander {ref}. ",
        "She reported that ",
        f'"412 API requests returned errors" {ref}.',
    ]


def inventive(body: dict[str, Any]) -> list[str]:
    ref = ref_of(body, "Priya Natarajan")
    return [
        f"Priya Natarajan was the incident commander {ref}. ",
        f'She said "we always test failover on Fridays" {ref}. ',
        f"The outage cost 9000 euros {ref}.",
    ]


@pytest.fixture(scope="module")
def served(
    stack: Stack, tenant_key_module: str
) -> Iterator[tuple[GraphQLClient, ScriptedLlm, str]]:
    with scripted_llm(Reply(build=honest)) as llm:
        remote = stack.with_env(
            TRELLIS_LLM_URL=llm.url, TRELLIS_LLM_MODELS=MODEL, TRELLIS_LLM_API_KEY="test-key"
        )
        with running_server(remote) as url, httpx.Client(base_url=url, timeout=60) as http:
            yield GraphQLClient(http, tenant_key_module), llm, url


def collection(gql: GraphQLClient, policy: str = "REMOVE") -> str:
    name = new_collection(gql)
    ingest(gql, name, {"externalId": "inc", "text": REPORT, "contentType": "text/markdown"})
    gql.data(
        "mutation($c: String!, $p: ClaimPolicy!) { setAnswerPolicy(collection: $c,"
        " claimPolicy: $p) { answerPolicy } }",
        c=name,
        p=policy,
    )
    return name


def ask(gql: GraphQLClient, name: str) -> dict[str, Any]:
    answer: dict[str, Any] = gql.data(
        ANSWER, input={"collections": [name], "query": "Who led INC-2041?", "model": MODEL}
    )["answer"]
    return answer


def script(llm: ScriptedLlm, *replies: Reply) -> None:
    llm.replies[:] = [*replies, Reply(build=honest)]


def test_a_supported_llm_answer_keeps_its_quote_and_reports_usage(
    served: tuple[GraphQLClient, ScriptedLlm, str],
) -> None:
    gql, llm, _ = served
    script(llm)
    answer = ask(gql, collection(gql))
    assert answer["text"].startswith("Priya Natarajan was the incident commander [[SRC:")
    assert answer["verification"]["claimsSupported"] == 2
    assert [q["text"] for q in answer["brief"]["support"]] == ["412 API requests returned errors"]
    assert answer["brief"]["support"][0]["verified"]
    usage = answer["usage"]
    assert (usage["model"], usage["promptTokens"], usage["completionTokens"]) == (MODEL, 120, 30)
    prompt = llm.requests[-1]["body"]["messages"]
    assert "[[SRC:0001]]" in prompt[-1]["content"] and "exactly" in prompt[0]["content"]


def test_models_list_the_configured_llm(served: tuple[GraphQLClient, ScriptedLlm, str]) -> None:
    gql, _, _ = served
    names = [m["name"] for m in gql.data("{ answerModels { name } }")["answerModels"]]
    assert names == ["extractive", MODEL]


def test_remove_drops_an_invented_quote_and_an_unsupported_claim(
    served: tuple[GraphQLClient, ScriptedLlm, str],
) -> None:
    gql, llm, _ = served
    script(llm, Reply(build=inventive))
    answer = ask(gql, collection(gql, "REMOVE"))
    assert "Fridays" not in answer["text"] and "9000" not in answer["text"]
    statuses = [c["status"] for c in answer["claims"]]
    assert statuses == ["SUPPORTED", "REMOVED", "REMOVED"]
    assert "quotes words" in answer["claims"][1]["reason"]
    assert "9000" in answer["claims"][2]["reason"]


def test_caveat_keeps_them_marked(served: tuple[GraphQLClient, ScriptedLlm, str]) -> None:
    gql, llm, _ = served
    script(llm, Reply(build=inventive))
    answer = ask(gql, collection(gql, "CAVEAT"))
    assert "(not verified against the sources)" in answer["text"]
    assert [c["status"] for c in answer["claims"]] == ["SUPPORTED", "CAVEATED", "CAVEATED"]
    assert answer["brief"]["support"] == []  # the invented quote is never shown as a quote


def test_abstain_turns_the_answer_into_an_abstention(
    served: tuple[GraphQLClient, ScriptedLlm, str],
) -> None:
    gql, llm, _ = served
    script(llm, Reply(build=inventive))
    answer = ask(gql, collection(gql, "ABSTAIN"))
    assert answer["abstained"] and answer["abstainReason"] == "UNSUPPORTED_CLAIM"
    assert "Priya" not in answer["text"] and "[[SRC:" not in answer["text"]


def test_the_stream_never_sends_a_removed_claim(
    served: tuple[GraphQLClient, ScriptedLlm, str], tenant_key_module: str
) -> None:
    gql, llm, url = served
    name = collection(gql, "REMOVE")
    script(llm, Reply(build=inventive))
    query = {"collections": [name], "query": "Who led INC-2041?", "model": MODEL}
    with open_ws(url, {"X-API-Key": tenant_key_module}) as ws:
        ws.recv(timeout=10)
        messages = subscribe(ws, STREAM, timeout=60, input=query)
    events = [m["payload"]["data"]["answerStream"] for m in messages if m["type"] == "next"]
    deltas = "".join(e["text"] for e in events if e["__typename"] == "AnswerDelta")
    assert "Fridays" not in deltas and "9000" not in deltas and "Priya" in deltas
    removed = [e for e in events if e["__typename"] == "AnswerClaim"]
    assert [e["status"] for e in removed] == ["REMOVED", "REMOVED"]
    assert events[-1]["__typename"] == "AnswerDone"


def test_a_429_before_the_first_token_is_retried(
    served: tuple[GraphQLClient, ScriptedLlm, str],
) -> None:
    gql, llm, _ = served
    name = collection(gql)
    script(llm, Reply(status=429))
    assert not ask(gql, name)["abstained"]


def test_a_slow_first_token_is_waited_for(served: tuple[GraphQLClient, ScriptedLlm, str]) -> None:
    gql, llm, _ = served
    name = collection(gql)
    script(llm, Reply(build=honest, first_delay=1.0))
    assert ask(gql, name)["usage"]["timeToFirstDeltaMs"] >= 1000


def test_a_failure_mid_stream_is_provider_unavailable(
    served: tuple[GraphQLClient, ScriptedLlm, str],
) -> None:
    gql, llm, _ = served
    name = collection(gql)
    script(llm, Reply(build=honest, cut_after=2))
    query = {"collections": [name], "query": "Who led INC-2041?", "model": MODEL}
    body = gql.post(ANSWER, input=query)
    assert body["errors"][0]["extensions"]["code"] == "PROVIDER_UNAVAILABLE"
    assert body["data"] is None


def tenant_on(stack: Stack, gql: GraphQLClient, plan: str, credits: float = 0) -> GraphQLClient:
    """A new tenant on `plan` with `credits`, on the same server, and its collection."""
    name = f"plan-{uuid.uuid4().hex[:8]}"
    client = GraphQLClient(gql.http, make_key(stack, name))
    rows(stack, "UPDATE tenants SET plan = %s, credits = %s WHERE name = %s RETURNING 1",
         plan, credits, name)  # fmt: skip
    return client


def test_the_catalog_follows_the_plan_and_never_substitutes(
    served: tuple[GraphQLClient, ScriptedLlm, str], stack: Stack
) -> None:
    gql, llm, _ = served
    starter = tenant_on(stack, gql, "starter", credits=5)
    models = starter.data("{ answerModels { name default } }")["answerModels"]
    assert models == [{"name": "extractive", "default": True}]
    asked = len(llm.requests)
    query = {"collections": [collection(starter)], "query": "Who led INC-2041?", "model": MODEL}
    body = starter.post(ANSWER, input=query)
    extensions = body["errors"][0]["extensions"]
    assert (extensions["code"], extensions["field"]) == ("PLAN_UPGRADE_REQUIRED", "model")
    assert len(llm.requests) == asked
    assert not starter.post(ANSWER, input={**query, "model": "extractive"}).get("errors")


def test_an_llm_answer_is_charged_by_its_tokens(
    served: tuple[GraphQLClient, ScriptedLlm, str], stack: Stack
) -> None:
    gql, llm, _ = served
    team = tenant_on(stack, gql, "team", credits=10)
    script(llm)
    name = collection(team)
    answer = team.data(
        ANSWER_USAGE, input={"collections": [name], "query": "Who led INC-2041?", "model": MODEL}
    )["answer"]
    assert answer["usage"]["credits"] == pytest.approx(1 + 2 * 150 / 1000)  # team: 1 + 2/1k
    now = datetime.now(UTC)
    balance = team.data(
        "query($f: DateTime!, $t: DateTime!) { usage(from: $f, to: $t, groupBy: MODEL)"
        " { group credits promptTokens completionTokens } }",
        f=(now - timedelta(days=1)).isoformat(),
        t=(now + timedelta(days=1)).isoformat(),
    )["usage"]
    assert balance == [
        {"group": MODEL, "credits": 1.3, "promptTokens": 120, "completionTokens": 30}
    ]


def test_a_stream_cut_off_is_charged_for_what_it_used_and_says_so(
    served: tuple[GraphQLClient, ScriptedLlm, str], stack: Stack
) -> None:
    gql, llm, _ = served
    team = tenant_on(stack, gql, "team", credits=10)
    name = collection(team)
    script(llm, Reply(build=honest, cut_after=2))
    query = {"collections": [name], "query": "Who led INC-2041?", "model": MODEL}
    extensions = team.post(ANSWER, input=query)["errors"][0]["extensions"]
    assert extensions["code"] == "PROVIDER_UNAVAILABLE"
    [(credits, complete, prompt)] = rows(
        stack,
        "SELECT u.credits, u.complete, u.prompt_tokens FROM usage_events u"
        " JOIN api_keys k ON k.id = u.key_id WHERE k.key_hash = sha256(%s::bytea)",
        team.api_key,
    )
    assert not complete and prompt > 0
    assert extensions["creditsCharged"] == float(credits) > 1


def test_a_client_that_hangs_up_is_charged_incomplete(
    served: tuple[GraphQLClient, ScriptedLlm, str], stack: Stack
) -> None:
    gql, llm, url = served
    team = tenant_on(stack, gql, "team", credits=10)
    name = collection(team)
    script(llm, Reply(build=lambda body: honest(body) * 20, piece_delay=0.2))
    query = {"collections": [name], "query": "Who led INC-2041?", "model": MODEL}
    with open_ws(url, {"X-API-Key": team.api_key}) as ws:
        ws.recv(timeout=10)
        payload = {"query": STREAM, "variables": {"input": query}}
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        ws.recv(timeout=30)  # the sources; then hang up mid-answer
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = rows(
            stack,
            "SELECT u.complete FROM usage_events u JOIN api_keys k ON k.id = u.key_id"
            " WHERE k.key_hash = sha256(%s::bytea)",
            team.api_key,
        )
        if found:
            break
        time.sleep(0.2)
    assert found == [(False,)]
    now = datetime.now(UTC)
    [total] = team.data(
        "query($f: DateTime!, $t: DateTime!) { usage(from: $f, to: $t, groupBy: KEY)"
        " { requests incomplete } }",
        f=(now - timedelta(days=1)).isoformat(),
        t=(now + timedelta(days=1)).isoformat(),
    )["usage"]
    assert total == {"requests": 1, "incomplete": 1}


def test_a_research_run_plans_and_composes_with_the_llm_and_is_charged_for_each(
    served: tuple[GraphQLClient, ScriptedLlm, str], stack: Stack
) -> None:
    """The run's model plans its sub-questions, then composes its answer, each charged once;
    the drafts between rounds are the extractive composer's and cost nothing. Only a process
    with the model takes the run: the test session's other server, which has no LLM, leaves
    it."""
    gql, llm, _ = served
    team = tenant_on(stack, gql, "team", credits=10)
    name = collection(team)
    plan = "1. Who led INC-2041?\n2. Who was the incident commander of INC-2041?\n3. Where is Oslo?"
    script(llm, Reply([plan]))
    before = len(llm.requests)
    query = {"collections": [name], "query": "Who led INC-2041?", "model": MODEL}
    start = "mutation($input: ResearchInput!) { startResearch(input: $input) { id } }"
    run_id = team.data(start, input=query)["startResearch"]["id"]
    read = """query($id: ID!) { researchRun(id: $id) { status reason steps { message }
      answer { text usage { model credits } } } }"""
    deadline = time.monotonic() + 60
    while (run := team.data(read, id=run_id)["researchRun"])["status"] in ("QUEUED", "RUNNING"):
        assert time.monotonic() < deadline, run
        time.sleep(0.2)
    assert run["status"] == "DONE", run["reason"]
    planned = run["steps"][0]["message"]
    assert "Sub-questions: Who was the incident commander of INC-2041?." in planned
    assert "Who led INC-2041? (the question itself)" in planned and "names Oslo" in planned
    assert run["answer"]["text"].startswith("Priya Natarajan was the incident commander [[SRC:")
    assert run["answer"]["usage"]["model"] == MODEL and len(llm.requests) == before + 2
    charged = rows(
        stack,
        "SELECT u.surface, u.model, u.credits FROM usage_events u JOIN api_keys k"
        " ON k.id = u.key_id WHERE k.key_hash = sha256(%s::bytea) ORDER BY u.id",
        team.api_key,
    )
    assert [(s, m) for s, m, _ in charged] == [("research", MODEL), ("answer", MODEL)]
    assert float(charged[1][2]) == run["answer"]["usage"]["credits"]


def test_a_document_answer_gives_the_llm_the_whole_document(
    served: tuple[GraphQLClient, ScriptedLlm, str],
) -> None:
    """Longer than the prompt budget's share (4,000 tokens, about 16,000 characters), the
    document still reaches the model whole: its last passage too."""
    gql, llm, _ = served
    script(llm)
    notes = [
        f"Maintenance note {i}: the pump in bay {i} was serviced and its filter replaced."
        for i in range(400)
    ]
    text = "\n\n".join(" ".join(notes[i : i + 5]) for i in range(0, 400, 5)) + "\n\n" + REPORT
    name = new_collection(gql)
    [outcome] = ingest(gql, name, {"externalId": "long", "text": text})["outcomes"]
    query = """query($input: DocumentAnswerInput!) { documentAnswer(input: $input) { text } }"""
    asked = {"document": outcome["documentId"], "query": "Who led INC-2041?", "model": MODEL}
    answer = gql.data(query, input=asked)["documentAnswer"]
    prompt = json.dumps(llm.requests[-1]["body"])
    assert "Maintenance note 0:" in prompt and "Priya Natarajan" in prompt
    assert answer["text"].startswith("Priya Natarajan was the incident commander [[SRC:")
