"""The second round, on by default in HYBRID: keyword searches for the bridges the first
round's best passages name near the query's relation words."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from app.search.second_round import bridges
from retrieval.relation_cues import cue_terms
from store.mentions import ChunkMentions
from tests.app.search.test_search import paths, search
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient

FESTIVAL = "The glass orchard festival was founded by Marta Kowalczyk; Piotr Nowak plays there."


def _mentions(text: str, *names: str) -> ChunkMentions:
    spans = {f"id-{name}": [(text.index(name), text.index(name) + len(name))] for name in names}
    return ChunkMentions(text, spans)


def test_the_bridge_beside_the_relation_word_comes_first() -> None:
    passage = _mentions(FESTIVAL, "Piotr Nowak", "Marta Kowalczyk")
    cues = cue_terms("Where was the founder of the glass orchard festival born?", [])
    assert bridges([passage], cues, set()) == ["Marta Kowalczyk", "Piotr Nowak"]


def test_the_query_s_own_entities_and_title_mentions_are_no_bridges() -> None:
    passage = _mentions(FESTIVAL, "Piotr Nowak", "Marta Kowalczyk")
    passage.spans["id-title"] = []
    assert bridges([passage], frozenset({"found"}), {"id-Marta Kowalczyk"}) == ["Piotr Nowak"]


def test_the_better_passage_s_bridges_come_first() -> None:
    other = _mentions("Jan Zielinski sails the regatta.", "Jan Zielinski")
    festival = _mentions(FESTIVAL, "Marta Kowalczyk")
    assert bridges([other, festival], frozenset(), set()) == ["Jan Zielinski", "Marta Kowalczyk"]


# The festival's page names its founder by initial, so the graph's entity for that name has
# no other page. The founder's page shares only "born" with the question; three pages about
# orchard festivals share more of it, and name nobody.
DOCS: list[dict[str, Any]] = [
    {
        "externalId": "festival",
        "title": "Glass Orchard Festival",
        "text": "The Glass Orchard Festival was founded by M. Kowalczyk in 1961.",
    },
    {
        "externalId": "marta",
        "title": "Marta Kowalczyk",
        "text": "Marta Kowalczyk was born in Gdansk. She studied chemistry in Warsaw, taught"
        " for twenty years and wrote three books about rivers and their fish.",
    },
    *(
        {
            "externalId": f"other-{i}",
            "title": f"orchard notes {i}",
            "text": f"The orchard festival sells glass {thing} under the old trees, and the"
            " glass orchard festival is loved by the village.",
        }
        for i, thing in enumerate(["ornaments", "bottles", "beads"])
    ),
]


@pytest.fixture(scope="module")
def client(http: httpx.Client, stack: Stack) -> GraphQLClient:
    return GraphQLClient(http, make_key(stack, f"second-{uuid.uuid4().hex[:6]}"))


@pytest.fixture(scope="module")
def corpus(client: GraphQLClient, stack: Stack) -> str:
    return graphed_collection(client, stack, *DOCS)


@pytest.mark.integration
def test_the_second_round_finds_the_bridge_s_page(client: GraphQLClient, corpus: str) -> None:
    """The first round finds the festival's page, not its founder's; the second searches
    for the founder that page names beside "founded"."""
    query = "Where was the founder of the Glass Orchard Festival born?"
    first = search(client, corpus, query, topK=2, graph={"secondRound": False})
    assert paths(first)[0] == "festival" and "marta" not in paths(first), paths(first)
    assert "secondRound" not in {t["leg"] for t in first["timings"]}
    second = search(client, corpus, query, topK=2)
    assert paths(second)[:2] == ["festival", "marta"], paths(second)
    marta = second["hits"][1]
    assert "KEYWORD" in marta["discoveryMethods"]
    assert "secondRound" in {t["leg"] for t in second["timings"]}
    assert not second["degraded"]
