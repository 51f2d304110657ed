"""Research runs through the API (app/research/): a run returns at once, retrieves in rounds
until a round finds nothing new, and composes from every passage read; its events arrive in
order over graphql-transport-ws; it can be cancelled; only its tenant sees it."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.localdb.scripted_llm import Reply, scripted_llm
from app.localdb.stack import Stack, make_key
from schema.serving import running_server
from tests.clubs import QUESTION, club_documents
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.graphql_ws import open_ws, subscribe
from tests.helpers import rows

pytestmark = pytest.mark.integration

RUN_FIELDS = """id status query reason createdAt startedAt finishedAt passagesRead
  steps { number kind message passagesRead at }
  brief { shortAnswer answer }
  answer { text abstained sources { ref document { title } } usage { passagesRead } }"""
START = (
    f"""mutation($input: ResearchInput!) {{ startResearch(input: $input) {{ {RUN_FIELDS} }} }}"""
)
READ = f"""query($id: ID!) {{ researchRun(id: $id) {{ {RUN_FIELDS} }} }}"""
CANCEL = f"""mutation($id: ID!) {{ cancelResearch(id: $id) {{ {RUN_FIELDS} }} }}"""
HELD = (
    "INSERT INTO research_runs (id, tenant_id, key_id, query, request, model, budget_seconds,"
    " status, claim_token, lease_until) VALUES (%s, %s, %s, 'q', '{}', 'extractive', 600,"
    " 'RUNNING', gen_random_uuid(), now() + interval '1 hour') RETURNING id"
)
EVENTS = """subscription($id: ID!) { researchEvents(id: $id) {
  __typename
  ... on ResearchProgress { step { number kind passagesRead } }
  ... on ResearchUpdated { afterStep brief { answer } }
  ... on ResearchDone { run { status passagesRead answer { sources { ref } } } } } }"""


@pytest.fixture(scope="module")
def clubs(http: Any, tenant_key_module: str, stack: Stack) -> tuple[GraphQLClient, str]:
    gql = GraphQLClient(http, tenant_key_module)
    return gql, graphed_collection(gql, stack, *club_documents())


def start(gql: GraphQLClient, name: str, query: str = QUESTION) -> dict[str, Any]:
    run: dict[str, Any] = gql.data(START, input={"collections": [name], "query": query, "topK": 1})[
        "startResearch"
    ]
    return run


def finished(gql: GraphQLClient, run_id: str, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        run: dict[str, Any] = gql.data(READ, id=run_id)["researchRun"]
        if run["status"] not in ("QUEUED", "RUNNING"):
            return run
        assert time.monotonic() < deadline, f"the run is still {run['status']}"
        time.sleep(0.1)


def test_a_run_returns_at_once_and_its_second_round_reads_what_the_first_did_not(
    clubs: tuple[GraphQLClient, str],
) -> None:
    gql, name = clubs
    started = start(gql, name)
    assert started["status"] == "QUEUED" and started["steps"] == [] and started["answer"] is None
    run = finished(gql, started["id"])
    assert run["status"] == "DONE" and run["reason"] is None
    kinds = [s["kind"] for s in run["steps"]]
    assert kinds[0] == "PLAN" and kinds[-1] == "COMPOSE" and kinds.count("ROUND") >= 2
    assert [s["number"] for s in run["steps"]] == list(range(1, len(kinds) + 1))
    first = run["steps"][1]["passagesRead"]
    titles = [s["document"]["title"] for s in run["answer"]["sources"]]
    assert "Marta Halvorsen" not in titles[:first]  # the third hop: not in the first round
    assert "Marta Halvorsen" in titles[first:]
    assert run["passagesRead"] == len(titles) == run["answer"]["usage"]["passagesRead"]
    assert run["brief"] is not None and run["startedAt"] and run["finishedAt"]


def test_a_round_that_finds_nothing_new_ends_the_rounds(
    clubs: tuple[GraphQLClient, str],
) -> None:
    gql, name = clubs
    run = finished(gql, start(gql, name)["id"])
    rounds = [s for s in run["steps"] if s["kind"] == "ROUND"]
    last = rounds[-1]
    assert len(rounds) < 4 or last["passagesRead"] > rounds[-2]["passagesRead"]
    if len(rounds) < 4:  # stopped early: its last round read nothing more
        assert last["passagesRead"] == rounds[-2]["passagesRead"]


def test_events_arrive_in_order_and_end_with_the_run(
    clubs: tuple[GraphQLClient, str], base_url: str, tenant_key_module: str
) -> None:
    gql, name = clubs
    run_id = start(gql, name)["id"]
    with open_ws(base_url, {"apiKey": tenant_key_module}) as ws:
        messages = subscribe(ws, EVENTS, timeout=60, id=run_id)
    assert messages[-1]["type"] == "complete", messages[-1]
    events = [m["payload"]["data"]["researchEvents"] for m in messages if m["type"] == "next"]
    steps = [e["step"]["number"] for e in events if e["__typename"] == "ResearchProgress"]
    assert steps == list(range(1, len(steps) + 1)) and len(steps) >= 4
    done = events[-1]
    assert done["__typename"] == "ResearchDone" and done["run"]["status"] == "DONE"
    updates = [i for i, e in enumerate(events) if e["__typename"] == "ResearchUpdated"]
    assert updates and all(events[i - 1]["__typename"] == "ResearchProgress" for i in updates)
    assert len(done["run"]["answer"]["sources"]) == done["run"]["passagesRead"]


def test_a_cancelled_run_takes_no_further_step(clubs: tuple[GraphQLClient, str]) -> None:
    gql, name = clubs
    run_id = start(gql, name)["id"]
    cancelled = gql.data(CANCEL, id=run_id)["cancelResearch"]
    assert cancelled["status"] == "CANCELLED" and cancelled["reason"] == "cancelled by the caller"
    time.sleep(1.5)
    later = gql.data(READ, id=run_id)["researchRun"]
    assert later["status"] == "CANCELLED" and later["steps"] == cancelled["steps"]
    assert later["answer"] is None


def test_cancelling_an_ended_run_leaves_it_as_it_is(clubs: tuple[GraphQLClient, str]) -> None:
    gql, name = clubs
    run = finished(gql, start(gql, name)["id"])
    again = gql.data(CANCEL, id=run["id"])["cancelResearch"]
    assert again["status"] == "DONE" and again["answer"] == run["answer"]


def test_only_its_tenant_sees_a_run(
    clubs: tuple[GraphQLClient, str], http: Any, stack: Stack, base_url: str
) -> None:
    gql, name = clubs
    run_id = start(gql, name)["id"]
    other_key = make_key(stack, f"tenant-{uuid.uuid4().hex[:10]}")
    other = GraphQLClient(http, other_key)
    for query in (READ, CANCEL):
        assert other.error_code(query, id=run_id) == "NOT_FOUND"
    with open_ws(base_url, {"apiKey": other_key}) as ws:
        messages = subscribe(ws, EVENTS, id=run_id)
    errors = [e for m in messages if m["type"] == "next" for e in m["payload"].get("errors", [])]
    assert [e["extensions"]["code"] for e in errors] == ["NOT_FOUND"]
    assert finished(gql, run_id)["status"] == "DONE"  # untouched by the other tenant


def test_bad_input_is_refused_before_a_run_is_queued(clubs: tuple[GraphQLClient, str]) -> None:
    gql, name = clubs
    cases = [
        ({"collections": [name], "query": " "}, "BAD_USER_INPUT", "query"),
        ({"collections": [name], "query": "q", "topK": 0}, "BAD_USER_INPUT", "topK"),
        ({"collections": [name], "query": "q", "model": "gpt"}, "PROVIDER_NOT_CONFIGURED", "model"),
        ({"collections": ["no-such"], "query": "q"}, "NOT_FOUND", None),
    ]
    for given, code, field in cases:
        error = gql.error(START, input=given)
        assert error["extensions"]["code"] == code
        assert field is None or error["extensions"]["field"] == field
    for bad in ("not-an-id", str(uuid.uuid4())):
        assert gql.error_code(READ, id=bad) == "NOT_FOUND"


def test_research_has_no_effort_and_says_it_does_not_search_the_web(
    clubs: tuple[GraphQLClient, str],
) -> None:
    gql, name = clubs
    given = {"collections": [name], "query": "q", "effort": "HIGH"}
    assert gql.error(START, input=given)["extensions"]["code"] == "BAD_USER_INPUT"
    described = gql.data('{ __type(name: "ResearchRun") { description } }')["__type"]
    assert "no web search" in described["description"]


def test_a_tenant_may_hold_only_so_many_open_runs(
    clubs: tuple[GraphQLClient, str], stack: Stack
) -> None:
    gql, name = clubs
    tenant = rows(stack, "SELECT tenant_id FROM collections WHERE name = %s", name)[0][0]
    key = rows(stack, "SELECT id FROM api_keys WHERE tenant_id = %s LIMIT 1", tenant)[0][0]
    ids = [uuid.uuid4() for _ in range(10)]
    for run_id in ids:  # running, held by a worker elsewhere for the next hour
        rows(stack, HELD, run_id, tenant, key)
    try:
        error = gql.error(START, input={"collections": [name], "query": "q"})
        assert error["extensions"]["code"] == "RATE_LIMITED"
        assert error["extensions"]["limit"] == 10
    finally:
        rows(stack, "DELETE FROM research_runs WHERE id = ANY(%s) RETURNING id", ids)


@pytest.fixture(scope="module")
def slow_model(stack: Stack, tenant_key_module: str) -> Iterator[GraphQLClient]:
    """A server whose LLM takes 1.5 s to begin each reply, and whose answers have 1 s."""
    with scripted_llm(Reply(["Who founded the Harbor Rowing Club?"], first_delay=1.5)) as llm:
        remote = stack.with_env(
            TRELLIS_LLM_URL=llm.url,
            TRELLIS_LLM_MODELS="slow-chat",
            TRELLIS_LLM_API_KEY="test-key",
            TRELLIS_ANSWER_BUDGET_SECONDS="1",
        )
        with running_server(remote) as url, httpx.Client(base_url=url, timeout=60) as http:
            yield GraphQLClient(http, tenant_key_module)


def test_a_runs_answer_has_what_is_left_of_the_runs_budget_not_an_answers(
    slow_model: GraphQLClient, stack: Stack
) -> None:
    name = graphed_collection(slow_model, stack, *club_documents())
    asked = {"collections": [name], "query": QUESTION, "topK": 1, "model": "slow-chat"}
    answer = "query($i: AnswerInput!) { answer(input: $i) { text } }"
    assert slow_model.error_code(answer, i=asked) == "ANSWER_TIMEOUT"  # 1.5 s: past its 1 s
    run = finished(slow_model, slow_model.data(START, input=asked)["startResearch"]["id"])
    assert run["status"] == "DONE", run["reason"]  # the same model composed within the run's
    assert run["steps"][-1]["kind"] == "COMPOSE" and run["answer"] is not None
