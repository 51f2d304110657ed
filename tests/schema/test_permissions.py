"""Every root field declares its scope, and a key without that scope gets FORBIDDEN.

The table below is the one list of which scope each field needs. A field added to the schema
without a row here, or without a permission class, fails the first test.
"""

from __future__ import annotations

import uuid

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from app.tenancy.keys import KeyRequest
from app.tenancy.principal import ALL_SCOPES, Scope
from schema import schema
from schema.permissions import scope_of
from tests.graphql_client import GraphQLClient
from tests.graphql_ws import open_ws, subscribe

S, A, N, M = Scope.SEARCH, Scope.ANSWER, Scope.INGEST, Scope.ADMIN
SEARCH_INPUT = '{collections: ["x"], query: "y"}'

FIELDS: dict[str, tuple[Scope, str]] = {
    "Query.collections": (S, "{ collections { name } }"),
    "Query.collection": (S, '{ collection(name: "x") { name } }'),
    "Query.health": (S, "{ health { ok } }"),
    "Query.documents": (S, '{ documents(collection: "x") { pageInfo { hasNextPage } } }'),
    "Query.document": (S, '{ document(id: "x") { id } }'),
    "Query.job": (N, '{ job(id: "x") { id } }'),
    "Query.vocabularyRules": (M, '{ vocabularyRules(collection: "x") { term } }'),
    "Query.entity": (S, '{ entity(id: "x") { id } }'),
    "Query.entities": (S, '{ entities(collection: "x", query: "y") { score } }'),
    "Query.neighborhood": (S, '{ neighborhood(entity: "x") { __typename } }'),
    "Query.paths": (S, '{ paths(from: "x", to: "y") { __typename } }'),
    "Query.timeline": (S, '{ timeline(entity: "x") { __typename } }'),
    "Query.themes": (S, '{ themes(collection: "x") { __typename } }'),
    "Query.search": (S, f"{{ search(input: {SEARCH_INPUT}) {{ __typename }} }}"),
    "Query.answer": (A, f"{{ answer(input: {SEARCH_INPUT}) {{ text }} }}"),
    "Query.answerModels": (A, "{ answerModels { name } }"),
    "Query.readSpans": (S, "{ readSpans(spans: []) { __typename } }"),
    "Query.searchLogs": (M, '{ searchLogs(collection: "x") { __typename } }'),
    "Query.apiKeys": (M, "{ apiKeys { id } }"),
    "Query.usage": (
        M,
        '{ usage(from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z") { group } }',
    ),
    "Mutation.createCollection": (M, 'mutation { createCollection(name: "x") { id } }'),
    "Mutation.setAnswerPolicy": (
        M,
        'mutation { setAnswerPolicy(collection: "x", claimPolicy: CAVEAT) { name } }',
    ),
    "Mutation.refreshThemes": (M, 'mutation { refreshThemes(collection: "x") { __typename } }'),
    "Mutation.deleteCollection": (M, 'mutation { deleteCollection(name: "x") }'),
    "Mutation.ingestDocuments": (
        N,
        'mutation { ingestDocuments(collection: "x", documents: []) { job { id } } }',
    ),
    "Mutation.deleteDocument": (
        N,
        'mutation { deleteDocument(collection: "x", externalId: "y") { deleted } }',
    ),
    "Mutation.defineRecordSchema": (
        N,
        'mutation { defineRecordSchema(collection: "x", name: "y", fields: []) { id } }',
    ),
    "Mutation.ingestRecords": (
        N,
        'mutation { ingestRecords(collection: "x", schema: "y", records: []) { job { id } } }',
    ),
    "Mutation.setVocabularyRules": (
        M,
        'mutation { setVocabularyRules(collection: "x", rules: []) { term } }',
    ),
    "Mutation.createApiKey": (M, "mutation { createApiKey(input: {}) { secret } }"),
    "Mutation.revokeApiKey": (M, 'mutation { revokeApiKey(id: "x") { id } }'),
    "Subscription.ticks": (S, "subscription { ticks(count: 1, intervalMs: 0) }"),
    "Subscription.answerStream": (
        A,
        f"subscription {{ answerStream(input: {SEARCH_INPUT}) {{ __typename }} }}",
    ),
    "Query.answerEfforts": (A, "{ answerEfforts { name budgetSeconds } }"),
    "Query.documentAnswer": (
        A,
        '{ documentAnswer(input: {document: "x", query: "y"}) { text } }',
    ),
    "Subscription.documentAnswerStream": (
        A,
        'subscription { documentAnswerStream(input: {document: "x", query: "y"}) { __typename } }',
    ),
    "Subscription.chat": (
        A,
        'subscription { chat(input: {messages: [{role: USER, content: "hi"}]}) { __typename } }',
    ),
    "Mutation.startResearch": (
        A,
        f"mutation {{ startResearch(input: {SEARCH_INPUT}) {{ id }} }}",
    ),
    "Mutation.cancelResearch": (A, 'mutation { cancelResearch(id: "x") { id } }'),
    "Query.researchRun": (A, '{ researchRun(id: "x") { id } }'),
    "Subscription.researchEvents": (
        A,
        'subscription { researchEvents(id: "x") { __typename } }',
    ),
    "Subscription.ingestProgress": (
        N,
        'subscription { ingestProgress(jobId: "x") { __typename } }',
    ),
}


# Fields any valid key may call: what the key itself may do.
UNSCOPED = {"Query.viewer": "{ viewer { tenant } }"}


def schema_fields() -> dict[str, Scope | None]:
    found = {}
    for root in ("Query", "Mutation", "Subscription"):
        definition = schema.get_type_by_name(root)
        assert definition is not None
        for field in definition.fields:  # type: ignore[union-attr]
            name = schema.config.name_converter.get_graphql_name(field)
            found[f"{root}.{name}"] = scope_of(field)
    return found


def test_every_root_field_declares_the_scope_of_the_table() -> None:
    declared = schema_fields()
    assert {name for name, scope in declared.items() if scope is None} == set(UNSCOPED)
    declared = {name: scope for name, scope in declared.items() if name not in UNSCOPED}
    assert sorted(declared) == sorted(FIELDS), "add the new field to FIELDS with its scope"
    assert {name: scope for name, scope in declared.items()} == {
        name: scope for name, (scope, _) in FIELDS.items()
    }


def key_without(stack: Stack, scope: Scope) -> str:
    others = tuple(s.value for s in ALL_SCOPES if s is not scope)
    return make_key(stack, f"scopes-{uuid.uuid4().hex[:8]}", KeyRequest(others))


@pytest.fixture(scope="module")
def keys_without(stack: Stack) -> dict[Scope, str]:
    return {scope: key_without(stack, scope) for scope in (S, A, N, M)}


@pytest.mark.integration
@pytest.mark.parametrize("field", [f for f in FIELDS if not f.startswith("Subscription.")])
def test_a_key_without_the_scope_is_forbidden(
    http: httpx.Client, keys_without: dict[Scope, str], field: str
) -> None:
    scope, operation = FIELDS[field]
    body = GraphQLClient(http, keys_without[scope]).post(operation)
    assert body["data"] is None
    [error] = body["errors"]
    assert error["extensions"]["code"] == "FORBIDDEN", error
    assert error["extensions"]["scope"] == scope.value


@pytest.mark.integration
@pytest.mark.parametrize("field", [f for f in FIELDS if f.startswith("Subscription.")])
def test_a_subscription_without_the_scope_is_forbidden(
    base_url: str, keys_without: dict[Scope, str], field: str
) -> None:
    scope, operation = FIELDS[field]
    with open_ws(base_url, {"apiKey": keys_without[scope]}) as ws:
        messages = subscribe(ws, operation)
    [error] = [m for m in messages if m["type"] in ("next", "error")]
    errors = error["payload"]["errors"] if error["type"] == "next" else error["payload"]
    assert errors[0]["extensions"]["code"] == "FORBIDDEN"
    assert errors[0]["extensions"]["scope"] == scope.value


@pytest.mark.integration
def test_a_key_with_the_scope_passes(http: httpx.Client, keys_without: dict[Scope, str]) -> None:
    """The answer-less key still searches: scopes are independent."""
    client = GraphQLClient(http, keys_without[A])
    assert client.data("{ collections { name } }") == {"collections": []}
    assert client.error_code(FIELDS["Query.answerModels"][1]) == "FORBIDDEN"


@pytest.mark.integration
def test_the_viewer_names_each_missing_scope_with_the_apis_reason(
    http: httpx.Client, keys_without: dict[Scope, str]
) -> None:
    client = GraphQLClient(http, keys_without[N])
    viewer = client.data("{ viewer { plan scopes { scope granted reason } contentScopes } }")
    grants = {g["scope"]: g for g in viewer["viewer"]["scopes"]}
    assert grants["search"] == {"scope": "search", "granted": True, "reason": None}
    refused = client.post(FIELDS["Mutation.ingestDocuments"][1])["errors"][0]["message"]
    assert grants["ingest"] == {"scope": "ingest", "granted": False, "reason": refused}
    assert viewer["viewer"]["contentScopes"] == []


@pytest.mark.integration
def test_the_viewer_needs_a_key(http: httpx.Client) -> None:
    body = http.post("/graphql", json={"query": UNSCOPED["Query.viewer"]}).json()
    assert body["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
