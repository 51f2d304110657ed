"""The graph leg's walk starts from the passage the query resembles, so a query that names
no entity still walks."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from tests.app.search.test_search import paths, search
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient

pytestmark = pytest.mark.integration

DOCS: list[dict[str, Any]] = [
    {
        "externalId": "festival",
        "title": "The glass orchard festival",
        "text": "The glass orchard festival is organised every spring by Marta Kowalczyk,"
        " and the evening concert is given by Piotr Nowak.",
    },
    {
        "externalId": "marta",
        "title": "Marta Kowalczyk",
        "text": "Marta Kowalczyk was born in Gdansk and trained as a glassblower.",
    },
    {
        "externalId": "piotr",
        "title": "Piotr Nowak",
        "text": "Piotr Nowak was born in Krakow and plays the violin.",
    },
    {
        "externalId": "regatta",
        "title": "Harbour regatta",
        "text": "The harbour regatta is sailed every summer off Gdynia by Jan Zielinski.",
    },
]


@pytest.fixture(scope="module")
def client(http: httpx.Client, stack: Stack) -> GraphQLClient:
    return GraphQLClient(http, make_key(stack, f"walk-{uuid.uuid4().hex[:6]}"))


@pytest.fixture(scope="module")
def corpus(client: GraphQLClient, stack: Stack) -> str:
    return graphed_collection(client, stack, *DOCS)


def test_a_query_naming_no_entity_still_walks(client: GraphQLClient, corpus: str) -> None:
    """No name to link: the walk starts at the passage the query resembles, and its cue
    ("organiser") leads to the bridge that passage names."""
    query = "where was the organiser of the glass orchard festival born?"
    result = search(client, corpus, query, mode="GRAPH")
    found = paths(result)
    assert found[0] == "festival"
    assert found.index("marta") < found.index("piotr")
    bridge = next(h for h in result["hits"] if h["document"]["path"] == "marta")
    assert bridge["relationshipPath"]["entities"][-1]["name"] == "Marta Kowalczyk"
    assert found[:2] == paths(search(client, corpus, query, mode="HYBRID"))[:2]
