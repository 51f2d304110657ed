"""A research run's sub-questions, planned by its LLM: each is verified against the question
before it is searched (no name or number the question lacks, not the question again, at
most three), and a run with a real model plans, searches what it kept, and meters the
planning as research."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.localdb.llamacpp import MODEL_NAME
from app.localdb.stack import Stack
from app.research.planner import MOST, Rejected, verified
from app.search.checks import MAX_QUERY
from schema.serving import running_server
from tests.app.research.test_research import START, finished
from tests.clubs import QUESTION, club_documents
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

ASKED = "Where was the daughter of the founder of the Lakeside Chess Club born?"


def test_list_marks_are_read_past_and_supported_questions_kept() -> None:
    planned = verified(
        "1. Who founded the Lakeside Chess Club?\n- Who is his daughter?\n\n* Where was she born?",
        ASKED,
    )
    assert planned.kept == ["Who founded the Lakeside Chess Club?", "Who is his daughter?",
                            "Where was she born?"]  # fmt: skip
    assert planned.rejected == []


def test_an_invented_name_or_number_is_not_searched() -> None:
    planned = verified("Where was Ingrid Moe born?\nWho founded the club in 1903?", ASKED)
    assert planned.kept == []
    assert planned.rejected == [
        Rejected("Where was Ingrid Moe born?", "names Ingrid, Moe, which the question does not"),
        Rejected("Who founded the club in 1903?", "names 1903, which the question does not"),
    ]


def test_an_invented_name_is_given_once_in_the_reason_however_often_it_is_written() -> None:
    written = "Did Ingrid Moe or Ingrid Moe's son Moe found it?"
    [rejected] = verified(written, ASKED).rejected
    assert rejected.reason == "names Ingrid, Moe, which the question does not"


def test_the_question_again_a_repeat_and_too_many_are_not_searched() -> None:
    lines = [ASKED, "Who founded the Lakeside Chess Club?", "Who founded the Lakeside Chess Club?"]
    lines += [f"Who {verb} the Lakeside Chess Club?" for verb in ("led", "joined", "left")]
    planned = verified("\n".join(lines), ASKED)
    assert planned.kept[0] == "Who founded the Lakeside Chess Club?" and len(planned.kept) == MOST
    assert [r.reason for r in planned.rejected] == ["the question itself", "past the most"]


def test_a_line_longer_than_a_query_is_not_searched() -> None:
    [rejected] = verified("who " * MAX_QUERY, ASKED).rejected
    assert rejected.reason.startswith("longer than")


@pytest.fixture(scope="module")
def served(stack: Stack, llama_url: str, tenant_key_module: str) -> Iterator[GraphQLClient]:
    remote = stack.with_env(
        TRELLIS_LLM_URL=f"{llama_url}/v1",
        TRELLIS_LLM_MODELS=MODEL_NAME,
        TRELLIS_LLM_API_KEY="local",
    )
    with running_server(remote) as url, httpx.Client(base_url=url, timeout=120) as http:
        yield GraphQLClient(http, tenant_key_module)


@pytest.mark.integration
def test_a_run_with_a_model_plans_verified_sub_questions_and_meters_them(
    served: GraphQLClient, stack: Stack
) -> None:
    name = graphed_collection(served, stack, *club_documents())
    request = {"collections": [name], "query": QUESTION, "topK": 1, "model": MODEL_NAME}
    started: dict[str, Any] = served.data(START, input=request)["startResearch"]
    run = finished(served, started["id"], seconds=300)
    assert run["status"] == "DONE", run["reason"]
    plan = run["steps"][0]
    assert plan["kind"] == "PLAN" and "Sub-questions:" in plan["message"]
    [(detail,)] = rows(stack, "SELECT detail FROM research_steps WHERE run_id = %s AND"
                       " number = 1", started["id"])  # fmt: skip
    kept = detail["subquestions"]
    assert verified("\n".join(kept), QUESTION).kept == kept  # every one passes again
    assert all(r["reason"] for r in detail["rejected"])
    surfaces = rows(stack, "SELECT surface FROM usage_events e JOIN research_runs r ON"
                    " r.tenant_id = e.tenant_id WHERE r.id = %s", started["id"])  # fmt: skip
    assert ("research",) in surfaces
