"""Neighbourhoods, paths and timelines through GraphQL, against the real graph."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from tests.graph_helpers import cypher, eventually, graphed_collection, wait_until_graphed
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection

pytestmark = pytest.mark.integration

HISTORY = [
    {
        "externalId": "acme-2010",
        "text": "In 2010, Acme Robotics was headquartered in Boston. "
        "Jane Porter is the CEO of Acme Robotics.",
    },
    {
        "externalId": "acme-2015",
        "text": "In March 2015, Acme Robotics moved its headquarters to Denver.",
    },
    {
        "externalId": "acme-2021",
        "text": "In 2021 Acme Robotics relocated its headquarters to Austin.",
    },
]
CHAIN = [
    {"externalId": "founding", "text": "Alice Smith founded Nimbus Labs in 2012."},
    {"externalId": "deal", "text": "Nimbus Labs acquired Quartz Systems in 2018."},
    {"externalId": "office", "text": "Quartz Systems is headquartered in Lisbon."},
]
HQ = ["headquartered in", "move headquarters to", "relocate headquarters to"]
EDGE = """kind factId predicate source target weight validFrom validTo recordedAt invalidatedAt
 supersededBy evidence { documentId chunkId span { start end } sentence document { externalId } }"""
NEIGHBORHOOD = (
    "query($e: ID!, $hops: Int!, $asOf: DateTime, $p: [String!], $first: Int!) {"
    " neighborhood(entity: $e, hops: $hops, asOf: $asOf, predicates: $p, first: $first) {"
    " center { name } nodes { hops entity { id name } } truncated edges { " + EDGE + " } } }"
)
PATHS = (
    "query($a: ID!, $b: ID!, $max: Int!) { paths(from: $a, to: $b, maxHops: $max) {"
    " truncated paths { length weight entities { name }"
    " steps { from { name } to { name } relationship { " + EDGE + " } } } } }"
)
TIMELINE = (
    "query($e: ID!) { timeline(entity: $e) { entity { name } facts { invalidated replacedBy"
    " replaces subject { name } object { name } relationship { factId predicate validFrom"
    " validTo } } } }"
)


def entity_id(gql: GraphQLClient, collection: str, name: str) -> str:
    found = gql.data(
        "query($c: String!, $q: String!) { entities(collection: $c, query: $q, first: 1)"
        " { entity { id name } } }",
        c=collection,
        q=name,
    )["entities"]
    assert found and found[0]["entity"]["name"] == name, found
    return str(found[0]["entity"]["id"])


@pytest.fixture(scope="module")
def client(http: httpx.Client, stack: Stack) -> GraphQLClient:
    return GraphQLClient(http, make_key(stack, f"paths-{uuid.uuid4().hex[:6]}"))


@pytest.fixture(scope="module")
def history(client: GraphQLClient, stack: Stack) -> str:
    name = new_collection(client)
    ingest(client, name, *HISTORY)
    wait_until_graphed(stack, name, 3)
    return name


@pytest.fixture(scope="module")
def chain(client: GraphQLClient, stack: Stack) -> str:
    name = new_collection(client)
    ingest(client, name, *CHAIN)
    wait_until_graphed(stack, name, 3)
    return name


def headquarters(gql: GraphQLClient, collection: str, as_of: str | None) -> list[dict[str, Any]]:
    acme = entity_id(gql, collection, "Acme Robotics")
    found = gql.data(NEIGHBORHOOD, e=acme, hops=1, asOf=as_of, p=HQ, first=10)["neighborhood"]
    return sorted((e for e in found["edges"] if e["kind"] == "FACT"), key=lambda e: e["validFrom"])


def cities(edges: list[dict[str, Any]], gql: GraphQLClient) -> list[str]:
    names = {}
    for edge in edges:
        entity = gql.data("query($id: ID!) { entity(id: $id) { name } }", id=edge["target"])
        names[edge["target"]] = entity["entity"]["name"]
    return [names[e["target"]] for e in edges]


def test_headquarters_as_of_before_and_after_each_move(client: GraphQLClient, history: str) -> None:
    assert cities(headquarters(client, history, "2012-06-01T00:00:00Z"), client) == ["Boston"]
    assert cities(headquarters(client, history, "2015-01-31T00:00:00Z"), client) == ["Boston"]
    assert cities(headquarters(client, history, "2016-01-01T00:00:00Z"), client) == ["Denver"]
    assert cities(headquarters(client, history, "2022-01-01T00:00:00Z"), client) == ["Austin"]
    assert headquarters(client, history, "2005-01-01T00:00:00Z") == []


def test_a_move_closes_the_previous_headquarters(client: GraphQLClient, history: str) -> None:
    edges = headquarters(client, history, None)
    assert cities(edges, client) == ["Boston", "Denver", "Austin"]
    assert [(e["validFrom"], e["validTo"]) for e in edges] == [
        ("2010", "2015-03"),
        ("2015-03", "2021"),
        ("2021", None),
    ]
    assert edges[0]["supersededBy"] == edges[1]["factId"]
    assert (
        edges[0]["evidence"][0]["sentence"] == "In 2010, Acme Robotics was headquartered in Boston."
    )
    assert edges[0]["evidence"][0]["document"]["externalId"] == "acme-2010"


def test_timeline_flags_the_replaced_fact_and_its_replacement(
    client: GraphQLClient, history: str
) -> None:
    acme = entity_id(client, history, "Acme Robotics")
    facts = client.data(TIMELINE, e=acme)["timeline"]["facts"]
    hq = [f for f in facts if f["relationship"]["predicate"] in HQ]
    assert [f["object"]["name"] for f in hq] == ["Boston", "Denver", "Austin"]
    assert [f["invalidated"] for f in hq] == [True, True, False]
    assert hq[0]["replacedBy"] == hq[1]["relationship"]["factId"]
    assert hq[1]["replaces"] == [hq[0]["relationship"]["factId"]]
    validity = [f["relationship"]["validFrom"] for f in facts if f["relationship"]["validFrom"]]
    assert validity == sorted(validity)


def test_deleting_the_newest_move_reopens_the_previous_one(
    client: GraphQLClient, stack: Stack
) -> None:
    name = new_collection(client)
    ingest(client, name, *HISTORY)
    wait_until_graphed(stack, name, 3)
    client.data(
        "mutation($c: String!) {"
        ' deleteDocument(collection: $c, externalId: "acme-2021") { deleted } }',
        c=name,
    )

    def reopened() -> bool:
        edges = headquarters(client, name, None)
        return [(e["validFrom"], e["validTo"]) for e in edges] == [
            ("2010", "2015-03"),
            ("2015-03", None),
        ]

    eventually(reopened)


def test_a_three_hop_path_cites_every_step(client: GraphQLClient, chain: str) -> None:
    alice, lisbon = entity_id(client, chain, "Alice Smith"), entity_id(client, chain, "Lisbon")
    found = client.data(PATHS, a=alice, b=lisbon, max=4)["paths"]
    best = found["paths"][0]
    assert best["length"] == 3
    assert [e["name"] for e in best["entities"]] == [
        "Alice Smith",
        "Nimbus Labs",
        "Quartz Systems",
        "Lisbon",
    ]
    expected = zip(
        ["found", "acquire", "headquartered in"], ["founding", "deal", "office"], strict=True
    )
    for step, (predicate, document) in zip(best["steps"], expected, strict=True):
        relationship = step["relationship"]
        assert relationship["kind"] == "FACT" and relationship["predicate"] == predicate
        evidence = relationship["evidence"][0]
        assert evidence["document"]["externalId"] == document
        assert evidence["chunkId"] and evidence["span"]["end"] > evidence["span"]["start"]
        assert step["from"]["name"] in evidence["sentence"]
    assert client.data(PATHS, a=alice, b=lisbon, max=2)["paths"]["paths"] == []


def test_neighborhood_hops_and_cooccurrence_evidence(client: GraphQLClient, chain: str) -> None:
    alice = entity_id(client, chain, "Alice Smith")
    one = client.data(NEIGHBORHOOD, e=alice, hops=1, asOf=None, p=None, first=10)["neighborhood"]
    assert [n["entity"]["name"] for n in one["nodes"]] == ["Nimbus Labs"]
    two = client.data(NEIGHBORHOOD, e=alice, hops=2, asOf=None, p=None, first=10)["neighborhood"]
    assert {(n["entity"]["name"], n["hops"]) for n in two["nodes"]} == {
        ("Nimbus Labs", 1),
        ("Quartz Systems", 2),
    }
    co = [e for e in two["edges"] if e["kind"] == "CO_OCCURRENCE"]
    assert co and all(e["evidence"][0]["chunkId"] and e["evidence"][0]["span"] for e in co)
    assert not two["truncated"]


def test_a_hub_is_capped_and_says_so(client: GraphQLClient, stack: Stack) -> None:
    attendees = "John Smith, Mary Brown, Ahmed Garcia, Li Chen, Olga Novak, Ruth Cohen"
    texts = [f"Globex Corporation hired {a} in Berlin." for a in attendees.split(", ")]
    docs = [{"externalId": f"h{i}", "text": t} for i, t in enumerate(texts)]
    name = graphed_collection(client, stack, *docs)
    globex = entity_id(client, name, "Globex Corporation")
    found = client.data(NEIGHBORHOOD, e=globex, hops=1, asOf=None, p=None, first=3)["neighborhood"]
    assert len(found["nodes"]) == 3 and found["truncated"]


BAD = [
    (NEIGHBORHOOD, {"hops": 0, "first": 5}, "hops"),
    (NEIGHBORHOOD, {"hops": 4, "first": 5}, "hops"),
    (NEIGHBORHOOD, {"hops": 1, "first": 101}, "first"),
    (NEIGHBORHOOD, {"hops": 1, "first": 5, "asOf": "yesterday"}, "asOf"),
    (PATHS, {"max": 0}, "maxHops"),
    (PATHS, {"max": 7}, "maxHops"),
]


@pytest.mark.parametrize(("query", "variables", "field"), BAD)
def test_bad_arguments_name_the_field(
    client: GraphQLClient, chain: str, query: str, variables: dict[str, Any], field: str
) -> None:
    alice, lisbon = entity_id(client, chain, "Alice Smith"), entity_id(client, chain, "Lisbon")
    body = client.post(query, e=alice, a=alice, b=lisbon, **{"asOf": None, "p": None} | variables)
    error = body["errors"][0]
    assert error["extensions"]["code"] == "BAD_USER_INPUT", error
    assert error["extensions"]["field"] == field


def test_unparsable_literal_date_is_bad_input(client: GraphQLClient, chain: str) -> None:
    alice = entity_id(client, chain, "Alice Smith")
    body = client.post(
        'query($e: ID!) { timeline(entity: $e, from: "2020-13-01") { facts { invalidated } } }',
        e=alice,
    )
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "field": "from"}


def test_unknown_and_foreign_entities_are_not_found(
    client: GraphQLClient, chain: str, http: httpx.Client, stack: Stack
) -> None:
    alice, lisbon = entity_id(client, chain, "Alice Smith"), entity_id(client, chain, "Lisbon")
    other = GraphQLClient(http, make_key(stack, f"other-{uuid.uuid4().hex[:6]}"))
    variables = {"hops": 1, "first": 5, "asOf": None, "p": None}
    assert other.error_code(NEIGHBORHOOD, e=alice, **variables) == "NOT_FOUND"
    assert other.error_code(PATHS, a=alice, b=lisbon, max=3) == "NOT_FOUND"
    assert other.error_code(TIMELINE, e=alice) == "NOT_FOUND"
    assert client.error_code(NEIGHBORHOOD, e=str(uuid.uuid4()), **variables) == "NOT_FOUND"


ATTACKS = [
    "x' }) MATCH (n) DETACH DELETE n //",
    '") RETURN 1 UNION MATCH (n) DETACH DELETE n RETURN 1 //',
    "`) CALL db.clearQueryCaches() //",
]


@pytest.mark.parametrize("attack", ATTACKS)
def test_cypher_in_every_string_argument_is_data(
    client: GraphQLClient, chain: str, stack: Stack, attack: str
) -> None:
    before = cypher(stack, "MATCH (n) RETURN count(n) AS n")[0]["n"]
    alice = entity_id(client, chain, "Alice Smith")
    variables = {"hops": 2, "first": 5, "asOf": None}
    assert client.error_code(NEIGHBORHOOD, e=attack, p=None, **variables) == "NOT_FOUND"
    assert client.error_code(PATHS, a=attack, b=alice, max=3) == "NOT_FOUND"
    assert client.error_code(PATHS, a=alice, b=attack, max=3) == "NOT_FOUND"
    assert client.error_code(TIMELINE, e=attack) == "NOT_FOUND"
    found = client.data(NEIGHBORHOOD, e=alice, p=[attack], **variables)["neighborhood"]
    assert found["nodes"] == []
    client.data(
        "query($c: String!, $q: String!) { entities(collection: $c, query: $q) { score } }",
        c=chain,
        q=attack,
    )
    assert (
        client.error_code(
            'query($c: String!) { entities(collection: $c, query: "x") { score } }', c=attack
        )
        == "NOT_FOUND"
    )
    assert cypher(stack, "MATCH (n) RETURN count(n) AS n")[0]["n"] >= before
