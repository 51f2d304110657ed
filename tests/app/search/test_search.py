"""Search through GraphQL: legs, fusion, hit fields, filters, spans, logs and bad input."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import CONTRACT, ingest, new_collection

pytestmark = pytest.mark.integration

SEARCH = """query($input: SearchInput!) { search(input: $input) {
  queryId degraded missingLegs timings { leg ms }
  hits { rank score sourceType section discoveryMethods chunkText contextText
    document { id title path contentType metadata }
    spans { unit start end } highlights { term start end }
    relationshipPath { length entities { name }
      steps { from { name } to { name }
        relationship { kind predicate evidence { chunkId sentence } } } } } } }"""
DOCS: list[dict[str, Any]] = [
    {
        "externalId": "founding",
        "title": "Northwind history",
        "text": "Alice Smith founded Northwind Analytics with Bob Jones in 2012.",
        "metadata": {"year": 2012, "team": "history"},
    },
    {
        "externalId": "bob",
        "title": "Bob Jones",
        "text": "Bob Jones was born in Lisbon and studied physics in Porto.",
        "metadata": {"year": 2015, "team": "people"},
    },
    {
        "externalId": "gardens",
        "title": "Gardens",
        "text": "Tulips and roses bloom in spring; gardeners water them at dawn.",
        "metadata": {"year": 2020, "team": "garden"},
    },
    {"externalId": "contract", "title": "Master agreement", "text": CONTRACT},
]


@pytest.fixture(scope="module")
def client(http: httpx.Client, stack: Stack) -> GraphQLClient:
    return GraphQLClient(http, make_key(stack, f"search-{uuid.uuid4().hex[:6]}"))


@pytest.fixture(scope="module")
def corpus(client: GraphQLClient, stack: Stack) -> str:
    return graphed_collection(client, stack, *DOCS)


def search(gql: GraphQLClient, collection: str, query: str, **options: Any) -> dict[str, Any]:
    found: dict[str, Any] = gql.data(
        SEARCH, input={"collections": [collection], "query": query, **options}
    )["search"]
    return found


def paths(result: dict[str, Any]) -> list[str]:
    return [hit["document"]["path"] for hit in result["hits"]]


def test_hybrid_hits_say_how_they_were_found(client: GraphQLClient, corpus: str) -> None:
    result = search(client, corpus, "Where was Bob Jones born?")
    assert not result["degraded"] and result["missingLegs"] == []
    top = result["hits"][0]
    assert top["document"]["path"] == "bob"
    assert {"SEMANTIC", "KEYWORD"} <= set(top["discoveryMethods"])
    assert top["spans"][0]["unit"] == "CHARS"
    assert top["chunkText"] and top["contextText"]
    words = {top["chunkText"][h["start"] : h["end"]].lower() for h in top["highlights"]}
    assert {"bob", "jones", "born"} <= words
    assert [h["rank"] for h in result["hits"]] == list(range(1, len(result["hits"]) + 1))
    assert {t["leg"] for t in result["timings"]} >= {"SEMANTIC", "KEYWORD", "GRAPH", "total"}


def test_graph_finds_a_document_without_the_query_words(client: GraphQLClient, corpus: str) -> None:
    result = search(client, corpus, "Who co-founded Northwind Analytics?", mode="GRAPH")
    hits = {hit["document"]["path"]: hit for hit in result["hits"]}
    assert "bob" in hits and hits["bob"]["discoveryMethods"] == ["GRAPH"]
    path = hits["bob"]["relationshipPath"]
    assert next(e["name"] for e in path["entities"]) == "Northwind Analytics"
    assert path["entities"][-1]["name"] == "Bob Jones"
    assert all(step["relationship"]["evidence"] for step in path["steps"])


def test_a_named_section_leads(client: GraphQLClient, corpus: str) -> None:
    result = search(client, corpus, "what does section 2.3 say")
    top = result["hits"][0]
    assert top["document"]["path"] == "contract" and "SECTION" in top["discoveryMethods"]
    assert "Invoices are due" in top["chunkText"]


def test_keyword_only_and_semantic_only(client: GraphQLClient, corpus: str) -> None:
    keyword = search(client, corpus, "tulips", mode="KEYWORD")
    assert paths(keyword) == ["gardens"] and keyword["hits"][0]["discoveryMethods"] == ["KEYWORD"]
    semantic = search(client, corpus, "flowers in the garden", mode="SEMANTIC")
    assert paths(semantic)[0] == "gardens"


def test_filters_narrow_results(client: GraphQLClient, corpus: str) -> None:
    equal = search(
        client, corpus, "Bob Jones", filters={"metadata": [{"key": "team", "equals": "people"}]}
    )
    assert set(paths(equal)) == {"bob"}
    ranged = search(
        client,
        corpus,
        "Bob Jones",
        filters={"metadata": [{"key": "year", "atLeast": 2010, "atMost": 2013}]},
    )
    assert set(paths(ranged)) == {"founding"}
    bob_id = next(
        h["document"]["id"]
        for h in search(client, corpus, "Bob Jones")["hits"]
        if h["document"]["path"] == "bob"
    )
    only = search(client, corpus, "Bob Jones", filters={"documentIds": [bob_id]})
    assert set(paths(only)) == {"bob"}


def test_file_results_group_by_document(client: GraphQLClient, corpus: str) -> None:
    result = search(client, corpus, "Bob Jones Northwind", resultType="FILE")
    documents = paths(result)
    assert len(documents) == len(set(documents))


def test_another_tenants_documents_never_come_back(
    client: GraphQLClient, corpus: str, http: httpx.Client, stack: Stack
) -> None:
    bob_id = next(
        h["document"]["id"]
        for h in search(client, corpus, "Bob Jones")["hits"]
        if h["document"]["path"] == "bob"
    )
    other = GraphQLClient(http, make_key(stack, f"other-{uuid.uuid4().hex[:6]}"))
    mine = new_collection(other)
    ingest(other, mine, {"externalId": "x", "text": "Bob Jones sells bicycles."})
    found = search(other, mine, "Bob Jones", filters={"documentIds": [bob_id]})
    assert found["hits"] == []
    for key in ("tenant_id", "collection_id", "tenantId"):
        found = search(
            other, mine, "Bob Jones", filters={"metadata": [{"key": key, "equals": "x"}]}
        )
        assert found["hits"] == []
    assert other.error_code(SEARCH, input={"collections": [corpus], "query": "Bob"}) == "NOT_FOUND"


def test_keyword_hits_come_the_moment_a_document_is_indexed(client: GraphQLClient) -> None:
    name = new_collection(client)
    ingest(client, name, {"externalId": "fresh", "text": "Quokkas live on Rottnest Island."})
    assert paths(search(client, name, "quokkas", mode="KEYWORD")) == ["fresh"]


def test_read_spans_and_search_logs(client: GraphQLClient, corpus: str) -> None:
    hit = search(client, corpus, "tulips")["hits"][0]
    span = hit["spans"][0]
    read = client.data(
        "query($s: [SpanInput!]!) { readSpans(spans: $s) { text unit } }",
        s=[
            {
                "documentId": hit["document"]["id"],
                "unit": "CHARS",
                "start": span["start"],
                "end": span["end"],
            }
        ],
    )["readSpans"]
    assert read[0]["text"] == hit["chunkText"]
    logs = client.data(
        "query($c: String!) { searchLogs(collection: $c, first: 5)"
        " { query mode resultCount latencyMs degraded } }",
        c=corpus,
    )["searchLogs"]
    assert logs[0]["query"] == "tulips" and logs[0]["resultCount"] >= 1


BAD = [
    ({"query": ""}, "query"),
    ({"query": "x" * 2001}, "query"),
    ({"query": "x", "topK": 0}, "topK"),
    ({"query": "x", "topK": 101}, "topK"),
    ({"query": "x", "filters": {"metadata": [{"key": "year"}]}}, "filters.metadata"),
    (
        {"query": "x", "filters": {"metadata": [{"key": "year", "atLeast": 1, "atMost": "z"}]}},
        "filters.metadata",
    ),
    ({"query": "x", "filters": {"documentIds": ["not-an-id"]}}, "filters.documentIds"),
    ({"query": "x", "graph": {"hops": 4}}, "graph.hops"),
    ({"query": "x", "mode": "KEYWORD", "graph": {"secondRound": True}}, "graph.secondRound"),
    ({"query": "x", "mode": "SEMANTIC", "graph": {"matchFacts": True}}, "graph.matchFacts"),
    ({"query": "x", "legs": ["KEYWORD"], "graph": {"matchFacts": True}}, "graph.matchFacts"),
    ({"query": "x", "legs": []}, "legs"),
]


@pytest.mark.parametrize(("options", "field"), BAD)
def test_bad_input_names_the_field(
    client: GraphQLClient, corpus: str, options: dict[str, Any], field: str
) -> None:
    body = client.post(SEARCH, input={"collections": [corpus], **options})
    error = body["errors"][0]
    assert error["extensions"]["code"] == "BAD_USER_INPUT", error
    assert error["extensions"]["field"] == field


def test_unknown_mode_and_too_many_spans_are_bad_input(client: GraphQLClient, corpus: str) -> None:
    body = client.post(SEARCH, input={"collections": [corpus], "query": "x", "mode": "FUZZY"})
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    spans = [{"documentId": str(uuid.uuid4()), "unit": "CHARS", "start": 0, "end": 1}] * 51
    body = client.post("query($s: [SpanInput!]!) { readSpans(spans: $s) { text } }", s=spans)
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "field": "spans"}


def test_a_quoted_title_with_its_qualifier_picks_that_document(
    client: GraphQLClient, stack: Stack
) -> None:
    docs = [
        {"externalId": "planet", "title": "Mercury (planet)", "text": "Mercury orbits the Sun."},
        {"externalId": "element", "title": "Mercury (element)", "text": "Mercury is a metal."},
    ]
    name = graphed_collection(client, stack, *docs)
    for qualifier in ("planet", "element"):
        result = search(client, name, f"What is Mercury ({qualifier.title()}) like?", mode="GRAPH")
        assert paths(result)[0] == qualifier


def test_a_document_the_best_passages_name_by_title_comes_next(
    client: GraphQLClient, stack: Stack
) -> None:
    """The bridge's page shares one word with the question; five distractors share most.
    The best passage names it by title, so it follows the best three passages. The text
    legs alone, without the second round, which could find it too."""
    shared = "is a novel about lighthouse keepers on a stormy coast. Its author was born in a port."
    decoys = ["Tide Keepers", "Beacon Watch", "Storm Coast", "The Last Keeper", "Salt and Lamp"]
    docs = [
        {
            "externalId": "novel",
            "title": "Harbor Lights (novel)",
            "text": "Harbor Lights is a novel about lighthouse keepers, written by Maren Holt.",
        },
        *(
            {"externalId": f"decoy-{i}", "title": t, "text": f"{t} {shared}"}
            for i, t in enumerate(decoys)
        ),
        {"externalId": "author", "title": "Maren Holt", "text": "Maren Holt was born in Bergen."},
    ]
    name = graphed_collection(client, stack, *docs)
    query = "Where was the author of the lighthouse keepers novel Harbor Lights born?"
    alone = paths(search(client, name, query, mode="KEYWORD", topK=7))
    assert alone.index("author") > 3
    text_legs = {"legs": ["SEMANTIC", "KEYWORD"], "graph": {"secondRound": False}}
    linked = paths(search(client, name, query, topK=7, **text_legs))
    assert linked[0] == "novel" and linked[3] == "author"
