"""Themes: communities of a collection's entity graph, computed in the background."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from app.knowledge.communities import detect
from app.localdb.stack import Stack
from tests.graph_helpers import eventually, graphed_collection, wait_until_graphed
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection, rows

SPACE = [
    "Neil Armstrong joined NASA in 1955. Neil Armstrong trained with Buzz Aldrin in Houston.",
    "Buzz Aldrin and Neil Armstrong flew Apollo 11 for NASA. "
    "Michael Collins piloted the command module for NASA.",
    "Michael Collins, Buzz Aldrin and Neil Armstrong returned to Houston after the flight.",
]
COOKING = [
    "Julia Child studied cooking at Le Cordon Bleu in Paris. Julia Child married Paul Child.",
    "Paul Child and Julia Child lived in Paris while Simone Beck taught at Le Cordon Bleu.",
    "Simone Beck wrote a cookbook with Julia Child in Paris.",
]
SPACE_NAMES = {"Neil Armstrong", "NASA", "Buzz Aldrin", "Houston", "Apollo 11", "Michael Collins"}
COOKING_NAMES = {"Julia Child", "Le Cordon Bleu", "Paris", "Paul Child", "Simone Beck"}
THEMES = """query($c: String!, $first: Int) { themes(collection: $c, first: $first) {
  themesUpdatedAt stale themes { id label size entities { score entity { name } }
  facts { predicate support subject { name } object { name } }
  chunks { chunkId documentId title excerpt entities span { start end } } } } }"""


def test_two_separate_cliques_are_two_communities() -> None:
    edges = {("a", "b"): 3.0, ("b", "c"): 3.0, ("a", "c"): 3.0}
    edges |= {("x", "y"): 2.0, ("y", "z"): 2.0, ("x", "z"): 2.0, ("c", "x"): 0.1}
    found = detect(edges)
    assert found.members == [["a", "b", "c"], ["x", "y", "z"]]
    assert sum(found.pagerank.values()) == pytest.approx(1.0)


def test_an_empty_graph_has_no_communities() -> None:
    assert detect({}).members == []


@pytest.mark.integration
def test_two_topics_come_out_as_two_themes_with_digests(gql: GraphQLClient, stack: Stack) -> None:
    texts = SPACE + COOKING
    name = graphed_collection(
        gql, stack, *[{"externalId": f"d{i}", "text": t} for i, t in enumerate(texts)]
    )

    def computed() -> dict[str, Any] | None:
        found: dict[str, Any] = gql.data(THEMES, c=name, first=10)["themes"]
        return found if found["themesUpdatedAt"] and not found["stale"] else None

    eventually(lambda: computed() is not None)
    themes = computed()
    assert themes is not None
    groups = [{e["entity"]["name"] for e in t["entities"]} for t in themes["themes"]]
    assert len(groups) == 2
    assert sorted(groups, key=len) in ([COOKING_NAMES, SPACE_NAMES], [SPACE_NAMES, COOKING_NAMES])
    space = next(
        t for t in themes["themes"] if "NASA" in {e["entity"]["name"] for e in t["entities"]}
    )
    scores = [e["score"] for e in space["entities"]]
    assert scores == sorted(scores, reverse=True)
    assert space["entities"][0]["entity"]["name"] == "Neil Armstrong"
    assert any(f["predicate"] == "join" for f in space["facts"])
    assert space["chunks"] and all(c["excerpt"] for c in space["chunks"])


@pytest.mark.integration
def test_refresh_themes_now_and_bad_input(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    ingest(gql, name, {"externalId": "a", "text": COOKING[1]})
    wait_until_graphed(stack, name, 1)
    refreshed = _refreshed(gql, name)
    assert refreshed["themesUpdatedAt"] and not refreshed["stale"]
    assert [t["size"] for t in refreshed["themes"]] == [5]
    body = gql.post(THEMES, c=name, first=0)
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "field": "first"}
    assert gql.error_code(THEMES, c="no-such-collection", first=5) == "NOT_FOUND"


REFRESH = (
    "mutation($c: String!) { refreshThemes(collection: $c) { themesUpdatedAt stale"
    " themes { size } } }"
)


def _refreshed(gql: GraphQLClient, name: str) -> dict[str, Any]:
    """The refreshed themes, once the background loop's own run of them (if any) has ended."""
    bodies: list[dict[str, Any]] = []

    def refreshed() -> bool:
        bodies.append(gql.post(REFRESH, c=name))
        errors = bodies[-1].get("errors")
        assert not errors or errors[0]["extensions"]["code"] == "ALREADY_RUNNING", errors
        return not errors

    eventually(refreshed)
    result: dict[str, Any] = bodies[-1]["data"]["refreshThemes"]
    return result


@pytest.mark.integration
def test_a_refresh_is_refused_while_a_run_of_the_collection_is_under_way(
    gql: GraphQLClient, stack: Stack
) -> None:
    name = new_collection(gql)
    [(collection_id,)] = rows(stack, "SELECT id FROM collections WHERE name = %s", name)
    with psycopg.connect(stack.endpoints.postgres_url, autocommit=True) as run:
        held = "SELECT pg_try_advisory_lock(7342019, hashtext(%s))"
        assert run.execute(held, (str(collection_id),)).fetchone() == (True,)
        body = gql.post(REFRESH, c=name)
    assert body["errors"][0]["extensions"] == {"code": "ALREADY_RUNNING", "field": "collection"}
    assert _refreshed(gql, name)["themes"] == []  # the lock went with the session
