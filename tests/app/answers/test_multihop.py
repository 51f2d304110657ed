"""Answers that need two passages, through GraphQL on real databases: a bridge the first
passage names and retrieval did not bring (looked up in the collection and read), and
comparisons read side by side. A small corpus written for the purpose."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack
from tests.app.answers.test_answers import ask
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient

pytestmark = pytest.mark.integration

PAGES = {
    "blue-lantern": "# Blue Lantern\n\nBlue Lantern is a 1961 Norwegian drama film directed by"
    " Maren Olsvik and starring Per Aasen. It was shot on the coast near Ålesund.\n",
    "maren-olsvik": "# Maren Olsvik\n\nMaren Olsvik (4 May 1920 – 2 June 1990) was a Norwegian"
    " film director and screenwriter. She was born in Bergen and trained as a painter.\n",
    "red-lantern": "# Red Lantern\n\nRed Lantern is a 1955 Danish thriller film directed by"
    " Ivo Marsh.\n",
    "ivo-marsh": "# Ivo Marsh\n\nIvo Marsh (born 1938 in Leeds) was an English director of"
    " thrillers.\n",
    "lantern-gate": "# The Lantern Gate\n\nThe Lantern Gate is a 1931 drama film directed by"
    " Ada Ray.\n",
    "ada-ray": "# Ada Ray\n\nAda Ray (1890 – 1960) was an English film director. She was born in"
    " Whitby, and she began as a set painter.\n",
}


@pytest.fixture(scope="module")
def films(http: httpx.Client, stack: Stack, tenant_key_module: str) -> tuple[GraphQLClient, str]:
    gql = GraphQLClient(http, tenant_key_module)
    docs = [
        {
            "externalId": key,
            "title": text.split("\n", 1)[0].removeprefix("# "),
            "text": text,
            "contentType": "text/markdown",
        }
        for key, text in PAGES.items()
    ]
    return gql, graphed_collection(gql, stack, *docs)


def cited_titles(answer: dict[str, Any]) -> list[str]:
    return [s["document"]["title"] for s in answer["sources"] if s["cited"]]


def test_a_bridge_retrieval_left_out_is_looked_up_read_and_cited(
    films: tuple[GraphQLClient, str],
) -> None:
    answer = ask(films, "Where was the director of The Lantern Gate born?", topK=1)
    assert answer["brief"]["shortAnswer"] == "Whitby"
    # topK 1 retrieved one page; the other was looked up by name and numbered on
    titles = {s["document"]["title"] for s in answer["sources"]}
    assert titles == {"The Lantern Gate", "Ada Ray"}
    assert sorted(s["ref"] for s in answer["sources"]) == ["SRC:0001", "SRC:0002"]
    assert "Ada Ray" in cited_titles(answer)
    assert all(q["verified"] for q in answer["brief"]["support"])


def test_which_came_first_compares_the_dates_read_for_each_side(
    films: tuple[GraphQLClient, str],
) -> None:
    answer = ask(films, "Which film came out first, Blue Lantern or Red Lantern?")
    assert answer["brief"]["shortAnswer"] == "Red Lantern"
    assert set(cited_titles(answer)) == {"Blue Lantern", "Red Lantern"}
