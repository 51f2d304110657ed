"""Content scopes, adversarially: a key narrowed to org:acme tries every read path, with every
filter, against content outside its scope, and never sees a word of it.

The outside content names words found nowhere else ("kroner", "Lunde", "Skarvik"), so any
leak, in a hit, a path, its evidence, a quote or an answer, shows in the response text.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from app.tenancy.keys import KeyRequest
from tests.graph_helpers import wait_until_graphed
from tests.graphql_client import GraphQLClient
from tests.graphql_ws import open_ws, subscribe
from tests.helpers import ingest, new_collection

pytestmark = pytest.mark.integration

ACME = (
    "Project Falcon is run by Ines Vardy at the Acme office in Tromsø. Ines Vardy reports the"
    " Falcon budget to the board every quarter. Maren Holt joined Project Falcon in May."
)
GLOBEX = (
    "Project Falcon's budget was 9 million kroner, approved by Oskar Lunde of Globex in"
    " Skarvik. Oskar Lunde met Ines Vardy and Maren Holt to sign the Falcon budget. Maren Holt"
    " left Project Falcon for Skarvik in kroner terms."
)
# Reached from Ines Vardy only through the outside document: a walk that crossed it would
# show that document in this hit's relationship path.
ACME_ARCHIVE = "Maren Holt keeps the old archive in Bergen."
OPEN = "The Falcon budget review in Skarvik is led by Oskar Lunde, says the shared memo."
SECRETS = ("kroner", "Lunde", "Skarvik")
SEARCH = """query($input: SearchInput!) { search(input: $input) { degraded
  hits { chunkText contextText document { id title path metadata } spans { unit start end }
    relationshipPath { entities { id name } steps { from { name } to { name }
      relationship { kind predicate evidence { documentId chunkId sentence } } } } } } }"""
ANSWER = """query($input: AnswerInput!) { answer(input: $input) { text html
  brief { answer shortAnswer support { text ref } context { text } otherSide { text } gaps }
  sources { ref document { id title } relationshipPath { entities { name } } } } }"""
STREAM = """subscription($input: AnswerInput!) { answerStream(input: $input) { __typename
  ... on AnswerSources { sources { document { id title } } }
  ... on AnswerDelta { text }
  ... on AnswerDone { answer { text } } } }"""
QUESTION = "Who approved the Falcon budget in kroner, and where?"
QUESTIONS = [QUESTION, "Whom did Ines Vardy meet to sign the budget?"]


class World:
    def __init__(self, http: httpx.Client, stack: Stack) -> None:
        tenant = f"scopes-{uuid.uuid4().hex[:8]}"
        self.admin = GraphQLClient(http, make_key(stack, tenant))
        self.collection = new_collection(self.admin)
        docs: list[dict[str, Any]] = [
            {"externalId": "acme", "text": ACME, "accessScopes": ["org:acme"],
             "metadata": {"team": "falcon"}},
            {"externalId": "globex", "text": GLOBEX, "accessScopes": ["org:globex"],
             "metadata": {"team": "falcon"}},
            {"externalId": "open", "text": OPEN, "metadata": {"team": "falcon"}},
            {"externalId": "archive", "text": ACME_ARCHIVE, "accessScopes": ["org:acme"]},
        ]  # fmt: skip
        outcomes = ingest(self.admin, self.collection, *docs)["outcomes"]
        self.ids = {o["externalId"]: o["documentId"] for o in outcomes}
        wait_until_graphed(stack, self.collection, 4)
        narrowed = KeyRequest(content_scopes=("org:acme",))
        self.acme = GraphQLClient(http, make_key(stack, tenant, narrowed))
        self.secret_ids = (self.ids["globex"], self.ids["open"])

    def clean(self, body: dict[str, Any], asked_for_ids: bool = False) -> None:
        """Nothing of the outside content anywhere in the response (an error may repeat an
        id the caller itself sent)."""
        text = json.dumps(body)
        for word in (*SECRETS, *(() if asked_for_ids else self.secret_ids)):
            assert word not in text, f"{word!r} leaked: {text[:2000]}"


@pytest.fixture(scope="module")
def world(http: httpx.Client, stack: Stack) -> World:
    return World(http, stack)


FILTERS: list[dict[str, Any] | None] = [
    None,
    {"metadata": [{"key": "team", "equals": "falcon"}]},
    {"createdFrom": "2000-01-01T00:00:00Z", "createdTo": "2100-01-01T00:00:00Z"},
]


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("mode", ["KEYWORD", "SEMANTIC", "GRAPH", "HYBRID"])
@pytest.mark.parametrize("filters", range(len(FILTERS) + 1))
def test_search_never_shows_outside_content(
    world: World, question: str, mode: str, filters: int
) -> None:
    given = FILTERS[filters] if filters < len(FILTERS) else {"documentIds": list(world.secret_ids)}
    query = {"collections": [world.collection], "query": question, "mode": mode, "topK": 10}
    body = world.acme.post(SEARCH, input={**query, "filters": given})
    assert "errors" not in body, body
    world.clean(body)
    everyone = world.admin.data(SEARCH, input={**query, "filters": given})
    assert world.ids["globex"] in json.dumps(everyone) or filters == 1  # the admin sees it


def test_search_still_finds_what_the_key_may_see(world: World) -> None:
    query = {"collections": [world.collection], "query": "Who runs Project Falcon?"}
    hits = world.acme.data(SEARCH, input=query)["search"]["hits"]
    assert hits[0]["document"]["id"] == world.ids["acme"]
    assert {h["document"]["id"] for h in hits} <= {world.ids["acme"], world.ids["archive"]}


def test_documents_spans_and_records_are_invisible(world: World) -> None:
    listed = world.acme.data(
        "query($c: String!) { documents(collection: $c) { edges { node { id } } } }",
        c=world.collection,
    )["documents"]["edges"]
    assert {e["node"]["id"] for e in listed} == {world.ids["acme"], world.ids["archive"]}
    for hidden in world.secret_ids:
        assert world.acme.error_code("query($id: ID!) { document(id: $id) { id } }", id=hidden) == (
            "NOT_FOUND"
        )
        spans = [{"documentId": hidden, "unit": "FILE"}]
        body = world.acme.post(
            "query($s: [SpanInput!]!) { readSpans(spans: $s) { text } }", s=spans
        )
        assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
        world.clean(body, asked_for_ids=True)


def test_answers_and_their_stream_cite_only_visible_passages(world: World, base_url: str) -> None:
    question = {"collections": [world.collection], "query": QUESTION}
    body = world.acme.post(ANSWER, input=question)
    assert "errors" not in body, body
    world.clean(body)
    with open_ws(base_url, {"apiKey": world.acme.api_key}) as ws:
        messages = subscribe(ws, STREAM, timeout=60, input=question)
    assert messages[-1]["type"] == "complete"
    world.clean({"messages": messages})


WHOLE_COLLECTION_VIEWS: list[tuple[str, dict[str, Any]]] = [
    ("query($c: String!) { searchLogs(collection: $c) { query } }", {}),
    ('{ usage(from: "2026-01-01T00:00:00Z", to: "2026-06-01T00:00:00Z") { group } }', {}),
    ("{ apiKeys { id } }", {}),
    ("mutation($c: String!) { deleteCollection(name: $c) }", {}),
]


@pytest.mark.parametrize(("operation", "more"), WHOLE_COLLECTION_VIEWS)
def test_views_over_the_whole_collection_refuse_a_scoped_key(
    world: World, operation: str, more: dict[str, Any]
) -> None:
    variables = {"c": world.collection, **more} if "$c" in operation else more
    body = world.acme.post(operation, **variables)
    extensions = body["errors"][0]["extensions"]
    assert (extensions["code"], extensions["reason"]) == ("FORBIDDEN", "CONTENT_SCOPED_KEY")
    world.clean(body)


ENTITIES = (
    "query($c: String!, $q: String!) { entities(collection: $c, query: $q) { entity { id name } } }"
)
RELATIONSHIP = "kind predicate source target evidence { documentId chunkId sentence }"
EDGES = f"relationship {{ {RELATIONSHIP} }}"
ENTITY_READS = [
    "query($e: ID!) { entity(id: $e) { name neighbours { entity { name } }"
    " documents { edges { node { id } } } } }",
    f"query($e: ID!) {{ neighborhood(entity: $e, hops: 2) {{ nodes {{ entity {{ name }} }}"
    f" edges {{ {RELATIONSHIP} }} }} }}",
    f"query($e: ID!) {{ timeline(entity: $e) {{ facts {{ subject {{ name }} object {{ name }}"
    f" {EDGES} }} }} }}",
]


def entity_id(client: GraphQLClient, world: World, name: str) -> str | None:
    found = client.data(ENTITIES, c=world.collection, q=name)["entities"]
    exact = [m["entity"]["id"] for m in found if m["entity"]["name"] == name]
    return exact[0] if exact else None


def test_an_entity_known_only_from_outside_content_does_not_exist(world: World) -> None:
    oskar = entity_id(world.admin, world, "Oskar Lunde")
    assert oskar is not None
    assert entity_id(world.acme, world, "Oskar Lunde") is None
    body = world.acme.post("query($e: ID!) { entity(id: $e) { name } }", e=oskar)
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    world.clean(body, asked_for_ids=True)


@pytest.mark.parametrize("operation", ENTITY_READS)
def test_entity_views_show_only_visible_edges(world: World, operation: str) -> None:
    ines = entity_id(world.acme, world, "Ines Vardy")
    assert ines is not None
    body = world.acme.post(operation, e=ines)
    assert "errors" not in body, body
    world.clean(body)
    if "neighborhood" in operation:  # the same view for the whole tenant does cross it
        assert world.ids["globex"] in json.dumps(world.admin.post(operation, e=ines))


THEMES = """query($c: String!) { themes(collection: $c) { themes { label size
  entities { entity { id name } } facts { subject { name } predicate object { name } }
  chunks { documentId excerpt } } } }"""


def test_themes_of_a_scoped_key_come_from_its_own_content(world: World) -> None:
    world.admin.data(
        "mutation($c: String!) { refreshThemes(collection: $c) { __typename } }", c=world.collection
    )
    everyone = world.admin.data(THEMES, c=world.collection)["themes"]["themes"]
    assert "Lunde" in json.dumps(everyone)
    body = world.acme.post(THEMES, c=world.collection)
    assert "errors" not in body, body
    world.clean(body)
    themes = body["data"]["themes"]["themes"]
    names = {e["entity"]["name"] for t in themes for e in t["entities"]}
    assert "Ines Vardy" in names
    chunks = {c["documentId"] for t in themes for c in t["chunks"]}
    assert chunks <= {world.ids["acme"], world.ids["archive"]}


def test_paths_cross_only_visible_content(world: World) -> None:
    ines, maren = (entity_id(world.acme, world, n) for n in ("Ines Vardy", "Maren Holt"))
    assert ines and maren
    operation = (
        f"query($a: ID!, $b: ID!) {{ paths(from: $a, to: $b) {{ paths {{ entities {{ name }}"
        f" steps {{ {EDGES} }} }} }} }}"
    )
    body = world.acme.post(operation, a=ines, b=maren)
    assert "errors" not in body, body
    world.clean(body)
    assert world.acme.data(operation, a=ines, b=maren)["paths"]["paths"]  # via the Acme page


def test_a_scoped_key_writes_only_inside_its_scopes(world: World) -> None:
    outside = {"externalId": "new", "text": "x y z", "accessScopes": ["org:globex"]}
    body = world.acme.post(
        "mutation($c: String!, $d: [DocumentInput!]!) { ingestDocuments(collection: $c,"
        " documents: $d) { job { id } } }",
        c=world.collection,
        d=[outside],
    )
    extensions = body["errors"][0]["extensions"]
    assert (extensions["code"], extensions["field"]) == ("FORBIDDEN", "documents[0].accessScopes")
    over = world.acme.post(
        "mutation($c: String!, $d: [DocumentInput!]!) { ingestDocuments(collection: $c,"
        " documents: $d) { job { id } } }",
        c=world.collection,
        d=[{"externalId": "globex", "text": "overwritten"}],
    )
    assert over["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    deleted = world.acme.data(
        'mutation($c: String!) { deleteDocument(collection: $c, externalId: "globex")'
        " { deleted } }",
        c=world.collection,
    )
    assert deleted["deleteDocument"]["deleted"] is False
    mine = ingest(world.acme, world.collection, {"externalId": "mine", "text": "Acme note."})
    [outcome] = mine["outcomes"]
    assert outcome["status"] == "INDEXED"
    listed = world.admin.data(
        "query($c: String!) { documents(collection: $c) { edges { node { externalId } } } }",
        c=world.collection,
    )["documents"]["edges"]
    assert {e["node"]["externalId"] for e in listed} == {
        "acme",
        "globex",
        "open",
        "archive",
        "mine",
    }
    seen = world.acme.data(
        "query($c: String!) { documents(collection: $c) { edges { node { externalId } } } }",
        c=world.collection,
    )["documents"]["edges"]
    assert {e["node"]["externalId"] for e in seen} == {"acme", "archive", "mine"}  # its scopes


@pytest.mark.parametrize("scopes", [["org acme"], ["x" * 101], [""]])
def test_bad_access_scopes_name_the_field(world: World, scopes: list[str]) -> None:
    body = world.admin.post(
        "mutation($c: String!, $d: [DocumentInput!]!) { ingestDocuments(collection: $c,"
        " documents: $d) { job { id } } }",
        c=world.collection,
        d=[{"externalId": "bad", "text": "x", "accessScopes": scopes}],
    )
    extensions = body["errors"][0]["extensions"]
    assert (extensions["code"], extensions["field"]) == (
        "BAD_USER_INPUT",
        "documents[0].accessScopes",
    )
