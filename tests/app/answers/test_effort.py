"""Answer effort (app/answers/rounds.py): HIGH reads twice the passages with three graph
hops, then retrieves again from the bridges of what it read, until a round finds nothing new."""

from __future__ import annotations

from typing import Any

import pytest

from app.answers.request import AnswerRequest, Effort
from app.answers.service import with_effort
from retrieval.request import SearchRequest
from tests.clubs import QUESTION, club_documents
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient

pytestmark = pytest.mark.integration

ANSWER = """query($input: AnswerInput!) { answer(input: $input) {
  text sources { document { title } } usage { passagesRead } } }"""


@pytest.fixture(scope="module")
def clubs(http: Any, tenant_key_module: str, stack: Any) -> tuple[GraphQLClient, str]:
    gql = GraphQLClient(http, tenant_key_module)
    return gql, graphed_collection(gql, stack, *club_documents())


def answer(gql: GraphQLClient, name: str, effort: str) -> dict[str, Any]:
    query = {"collections": [name], "query": QUESTION, "topK": 1, "effort": effort}
    found: dict[str, Any] = gql.data(ANSWER, input=query)["answer"]
    return found


def test_high_finds_the_third_hop_that_one_search_did_not(
    clubs: tuple[GraphQLClient, str],
) -> None:
    gql, name = clubs
    medium = answer(gql, name, "MEDIUM")
    high = answer(gql, name, "HIGH")
    read = {s["document"]["title"] for s in high["sources"]}
    assert "Marta Halvorsen" not in {s["document"]["title"] for s in medium["sources"]}
    assert {"Edwin Falk", "Marta Halvorsen"} <= read  # each a round's bridge
    assert high["usage"]["passagesRead"] > medium["usage"]["passagesRead"]


def test_high_reads_twice_the_passages_with_three_hops() -> None:
    request = AnswerRequest(SearchRequest(("c",), "q", top_k=8), effort=Effort.HIGH)
    searched = with_effort(request).search
    assert (searched.top_k, searched.hops) == (16, 3)
    big = AnswerRequest(SearchRequest(("c",), "q", top_k=50), effort=Effort.HIGH)
    assert with_effort(big).search.top_k == 100  # search's own most
    medium = AnswerRequest(SearchRequest(("c",), "q", top_k=8))
    assert with_effort(medium) == medium


def test_the_efforts_are_listed_with_their_budgets(gql: GraphQLClient) -> None:
    efforts = gql.data("{ answerEfforts { name budgetSeconds graphHops furtherRounds } }")
    assert efforts["answerEfforts"] == [
        {"name": "MEDIUM", "budgetSeconds": 45.0, "graphHops": 2, "furtherRounds": 0},
        {"name": "HIGH", "budgetSeconds": 90.0, "graphHops": 3, "furtherRounds": 3},
    ]
