"""Query coverage in search: after the passage the question names, the passage that answers
the rest of it, not the first passage's namesakes."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from app.search.coverage import asked_terms, query_coverage
from retrieval.coverage import QueryCoverage
from store import bm25
from store.pool import open_pool
from store.scope import Scope
from tests.app.search.test_search import paths, search
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

# The question names the rowing team; the conference it asks about is named only on the
# team's page. The team's other pages repeat the team's name, its college and its
# conference, so every leg ranks them beside the rowing page.
QUESTION = "The Pinecrest Otters rowing team competes in a conference formerly known as what?"
TEAM = (
    "The Pinecrest Otters {sport} team represents Pinecrest College in {town}. The Otters"
    " team competes in the Harbor Valley Conference."
)
DOCS: list[dict[str, Any]] = [
    {
        "externalId": "rowing",
        "title": "Pinecrest Otters rowing",
        "text": TEAM.format(sport="rowing", town="Lake Mirren"),
    },
    {
        "externalId": "conference",
        "title": "Harbor Valley Conference",
        "text": "The Harbor Valley Conference is a collegiate athletic league of nine schools."
        " It was formerly known as the Northern Lakes League from 1970 to 1990.",
    },
    *(
        {
            "externalId": sport,
            "title": f"Pinecrest Otters {sport}",
            "text": TEAM.format(sport=sport, town=town),
        }
        for sport, town in [("swimming", "Ashford"), ("basketball", "Brill"), ("hockey", "Cole")]
    ),
]


@pytest.fixture(scope="module")
def client(http: httpx.Client, stack: Stack) -> GraphQLClient:
    return GraphQLClient(http, make_key(stack, f"coverage-{uuid.uuid4().hex[:6]}"))


@pytest.fixture(scope="module")
def corpus(client: GraphQLClient, stack: Stack) -> str:
    return graphed_collection(client, stack, *DOCS)


@pytest.mark.integration
def test_the_passage_that_answers_the_rest_comes_second(client: GraphQLClient, corpus: str) -> None:
    result = search(client, corpus, QUESTION, topK=3)
    assert paths(result)[:2] == ["rowing", "conference"], paths(result)


@pytest.mark.integration
def test_coverage_reads_terms_titles_and_frequencies(stack: Stack, corpus: str) -> None:
    tenant, collection = rows(
        stack, "SELECT tenant_id, id FROM collections WHERE name = %s", corpus
    )[0]
    chunks = dict(
        rows(
            stack,
            "SELECT d.external_id, c.id FROM chunks c JOIN documents d ON d.id = c.document_id"
            " WHERE d.collection_id = %s AND c.kind = 'main'",
            collection,
        )
    )
    found = asyncio.run(_coverage(stack, Scope(tenant, collection), list(chunks.values())))
    conference = found.passages[chunks["conference"]]
    assert conference.subject == {"harbor", "valley", "confer"}
    assert {"former", "known", "confer"} <= conference.terms
    assert found.weights["former"] > found.weights["otter"]  # one page has it, four the other
    assert "what" not in found.weights  # a stopword is no term
    assert found.gain(chunks["conference"], [chunks["rowing"]]) > 0
    assert found.gain(chunks["swimming"], [chunks["rowing"]]) == 0


async def _coverage(
    stack: Stack, scope: Scope, chunks: list[uuid.UUID]
) -> QueryCoverage[uuid.UUID]:
    pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
    try:
        async with pool.connection() as conn:
            stats = await bm25.stats(conn, scope.tenant_id, scope.collection_id)
            frequencies = await bm25.frequencies(conn, scope, asked_terms(QUESTION), stats)
            return await query_coverage(conn, scope, chunks, frequencies)
    finally:
        await pool.close()
