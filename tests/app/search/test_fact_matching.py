"""Query-to-fact matching: the graph walk starts from the entities of the facts a query
resembles, so a query that names nobody still reaches the pages of the people it is about."""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from app.models.minilm import MiniLM
from app.search.fact_matching import FACT_SIMILARITY, FACT_WEIGHT, weigh
from store import fact_vectors
from store.fact_vectors import FactMatch, FactQuery
from store.pool import open_pool
from store.tenants import Tenant
from tests.app.search.test_search import paths, search
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import rows


def test_facts_below_the_floor_add_nothing() -> None:
    below = FactMatch("a", "b", FACT_SIMILARITY - 0.01)
    assert weigh([below]) == ()


def test_an_entity_takes_its_best_fact_s_weight_below_a_named_seed_s() -> None:
    found = weigh([FactMatch("helen", "lantern", 0.8), FactMatch("helen", "city", 0.6)])
    assert [entity for entity, _ in found] == ["helen", "lantern", "city"]
    assert [w for _, w in found] == pytest.approx([FACT_WEIGHT * 0.8] * 2 + [FACT_WEIGHT * 0.6])
    assert all(weight < 1 for _, weight in found)


# The question names nobody and is lower-case, so no name links. The three notes resemble it
# most, so the dense leg's best passage (the walk's anchor) is one of them, and they name
# nobody either. Only the fact "Helen Ward write The Blue Lantern" leads to Helen Ward, whose
# own page shares no word with the question.
QUESTION = "who wrote the blue lantern novel?"
DOCS: list[dict[str, Any]] = [
    {"externalId": "review", "text": "The Blue Lantern was written by Helen Ward."},
    {
        "externalId": "helen",
        "text": "Helen Ward was born in Manchester. She worked as a nurse for many years.",
    },
    *(
        {
            "externalId": f"note-{i}",
            "text": f"Who wrote the lantern story? Readers of the blue lantern novel {thing}.",
        }
        for i, thing in enumerate(["still ask", "often wonder", "keep asking"])
    ),
]


@pytest.fixture(scope="module")
def client(http: httpx.Client, stack: Stack) -> GraphQLClient:
    return GraphQLClient(http, make_key(stack, f"facts-{uuid.uuid4().hex[:6]}"))


@pytest.fixture(scope="module")
def corpus(client: GraphQLClient, stack: Stack) -> str:
    return graphed_collection(client, stack, *DOCS)


@pytest.mark.integration
def test_the_walk_reaches_the_person_of_a_fact_the_query_resembles(
    client: GraphQLClient, corpus: str
) -> None:
    plain = search(client, corpus, QUESTION, mode="GRAPH", topK=5)
    assert "helen" not in paths(plain), paths(plain)  # off by default
    result = search(client, corpus, QUESTION, mode="GRAPH", topK=5, graph={"matchFacts": True})
    assert "helen" in paths(result) and "review" in paths(result), paths(result)
    helen = next(h for h in result["hits"] if h["document"]["path"] == "helen")
    assert helen["discoveryMethods"] == ["GRAPH"]
    assert helen["relationshipPath"]["entities"][-1]["name"] == "Helen Ward"


@pytest.mark.integration
def test_facts_are_matched_within_what_the_key_may_see(corpus: str, stack: Stack) -> None:
    (collection_id, tenant_id), *_ = rows(
        stack, "SELECT id, tenant_id FROM collections WHERE name = %s", corpus
    )
    query = FactQuery(collection_id, MiniLM().embed([QUESTION], True)[0], 5)

    async def nearest(tenant: Tenant, query: FactQuery) -> list[FactMatch]:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            async with pool.connection() as conn:
                return await fact_vectors.nearest(conn, tenant, query)
        finally:
            await pool.close()

    owner = Tenant(tenant_id, "t")
    found = asyncio.run(nearest(owner, query))
    assert found and found[0].similarity > FACT_SIMILARITY
    assert asyncio.run(nearest(Tenant(tenant_id, "t", ("org:elsewhere",)), query)) == []
    assert asyncio.run(nearest(Tenant(uuid.uuid4(), "other"), query)) == []
    (helen,), *_ = rows(
        stack,
        "SELECT id::text FROM entities WHERE collection_id = %s AND name = 'Helen Ward'",
        collection_id,
    )
    about = asyncio.run(nearest(owner, dataclasses.replace(query, about=(helen,))))
    assert about and all(helen in (m.subject_id, m.object_id) for m in about)
    nobody = dataclasses.replace(query, about=(str(uuid.uuid4()),))
    assert asyncio.run(nearest(owner, nobody)) == []
