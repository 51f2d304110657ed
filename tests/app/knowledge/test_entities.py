"""Entity lookups through GraphQL: fuzzy names and aliases, types, neighbours, tenancy."""

from __future__ import annotations

import uuid

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from graph.entities import lucene_query
from tests.graph_helpers import wait_until_graphed
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection

pytestmark = pytest.mark.integration

STORY = (
    "International Business Machines (IBM) acquired Red Hat in July 2019. "
    "Arvind Krishna is the CEO of IBM. Arvind Krishna met Jim Whitehurst in Raleigh."
)
SEARCH = """query($c: String!, $q: String!, $t: [String!]) {
  entities(collection: $c, query: $q, types: $t) { score entity { id name type aliases } } }"""


@pytest.fixture(scope="module")
def graphed(http: httpx.Client, stack: Stack) -> tuple[GraphQLClient, str]:
    gql = GraphQLClient(http, make_key(stack, f"entities-{uuid.uuid4().hex[:6]}"))
    name = new_collection(gql)
    ingest(gql, name, {"externalId": "ibm", "text": STORY})
    wait_until_graphed(stack, name, 1)
    return gql, name


def names(
    gql: GraphQLClient, collection: str, query: str, types: list[str] | None = None
) -> list[str]:
    found = gql.data(SEARCH, c=collection, q=query, t=types)["entities"]
    return [m["entity"]["name"] for m in found]


def test_lookup_by_alias_prefix_and_typo(graphed: tuple[GraphQLClient, str]) -> None:
    gql, name = graphed
    assert names(gql, name, "International Business")[0] == "IBM"
    assert names(gql, name, "krish")[0] == "Arvind Krishna"
    assert names(gql, name, "Krishnq")[0] == "Arvind Krishna"
    assert names(gql, name, "red hat", ["ORG"])[0] == "Red Hat"
    assert "Red Hat" not in names(gql, name, "red hat", ["PERSON"])


def test_entity_by_id_with_neighbours(graphed: tuple[GraphQLClient, str]) -> None:
    gql, name = graphed
    found = gql.data(SEARCH, c=name, q="Arvind Krishna", t=None)["entities"][0]["entity"]
    entity = gql.data(
        "query($id: ID!) { entity(id: $id) { name mentionCount"
        " neighbours(first: 5) { weight entity { name } } } }",
        id=found["id"],
    )["entity"]
    assert entity["mentionCount"] == 2
    tied = [n["entity"]["name"] for n in entity["neighbours"]]
    assert "IBM" in tied and "Jim Whitehurst" in tied


def test_a_page_of_entities_gets_each_its_own_neighbours_and_documents(
    graphed: tuple[GraphQLClient, str],
) -> None:
    """The page's lookups are batched (schema/loaders.py); each entity still gets exactly
    what it gets alone."""
    gql, name = graphed
    fields = "id neighbours(first: 3) { weight entity { name } }"
    fields += " documents(first: 2) { edges { mentions node { externalId } } }"
    page = gql.data(
        f'query($c: String!) {{ entities(collection: $c, query: "IBM Krishna Raleigh Red",'
        " first: 10)"
        f" {{ entity {{ {fields} }} }} }}",
        c=name,
    )["entities"]
    assert len(page) >= 3
    for match in page:
        alone = gql.data(
            f"query($id: ID!) {{ entity(id: $id) {{ {fields} }} }}", id=match["entity"]["id"]
        )
        assert alone["entity"] == match["entity"]
    assert any(m["entity"]["neighbours"] for m in page)
    assert all(m["entity"]["documents"]["edges"] for m in page)


def test_documents_mentioning_an_entity_page_by_mentions(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    texts = {
        "three": "Ada Lovelace wrote notes. Ada Lovelace met Charles Babbage. Ada Lovelace died.",
        "one": "Ada Lovelace lived in London.",
        "two": "Ada Lovelace studied mathematics. Ada Lovelace corresponded with Mary Somerville.",
        "none": "Charles Babbage designed engines in London.",
    }
    ingest(gql, name, *[{"externalId": k, "text": v} for k, v in texts.items()])
    wait_until_graphed(stack, name, 4)
    ada = gql.data(SEARCH, c=name, q="Ada Lovelace", t=None)["entities"][0]["entity"]["id"]
    query = (
        "query($id: ID!, $after: String) { entity(id: $id) { documents(first: 2, after: $after)"
        " { edges { cursor mentions node { externalId } } pageInfo { hasNextPage endCursor } } } }"
    )
    first = gql.data(query, id=ada, after=None)["entity"]["documents"]
    assert [(e["node"]["externalId"], e["mentions"]) for e in first["edges"]] == [
        ("three", 3),
        ("two", 2),
    ]
    assert first["pageInfo"]["hasNextPage"]
    rest = gql.data(query, id=ada, after=first["pageInfo"]["endCursor"])["entity"]["documents"]
    assert [e["node"]["externalId"] for e in rest["edges"]] == ["one"]
    assert not rest["pageInfo"]["hasNextPage"]
    body = gql.post(query, id=ada, after="not-a-cursor")
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "field": "after"}


def test_foreign_or_unknown_entity_is_not_found(
    graphed: tuple[GraphQLClient, str], http: httpx.Client, stack: Stack
) -> None:
    gql, name = graphed
    found = gql.data(SEARCH, c=name, q="IBM", t=None)["entities"][0]["entity"]
    other = GraphQLClient(http, make_key(stack, f"other-{uuid.uuid4().hex[:6]}"))
    query = "query($id: ID!) { entity(id: $id) { name } }"
    assert other.error_code(query, id=found["id"]) == "NOT_FOUND"
    assert gql.error_code(query, id="no-such-entity") == "NOT_FOUND"


@pytest.mark.parametrize(
    "attack",
    [
        "IBM') YIELD node MATCH (n) DETACH DELETE n //",
        "*:* OR name:*",
        'IBM" OR "',
        "} RETURN 1 //",
        "AND OR NOT ~ ^ [ ] { }",
    ],
)
def test_injection_attempts_are_data(graphed: tuple[GraphQLClient, str], attack: str) -> None:
    gql, name = graphed
    gql.data(SEARCH, c=name, q=attack, t=None)  # no error, and no effect:
    assert names(gql, name, "IBM")[0] == "IBM"
    assert lucene_query(attack).count("(") == lucene_query(attack).count(")")


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ('query: "x", first: 0', "first"),
        ('query: "x", first: 1000', "first"),
        ('query: "  "', "query"),
    ],
)
def test_bad_arguments_name_the_field(
    graphed: tuple[GraphQLClient, str], args: str, field: str
) -> None:
    gql, name = graphed
    body = gql.post(
        f"query($c: String!) {{ entities(collection: $c, {args}) {{ score }} }}", c=name
    )
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "field": field}
