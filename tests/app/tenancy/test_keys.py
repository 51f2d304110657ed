"""Key lifecycle through GraphQL: create (secret once), list, revoke, expiry, and what a key
may grant. Revocation reaches an open WebSocket at its next operation."""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from app.tenancy.devkey import ensure_dev_key
from app.tenancy.keys import KeyRequest
from app.tenancy.principal import ALL_SCOPES
from tests.graphql_client import GraphQLClient
from tests.graphql_ws import open_ws, subscribe

pytestmark = pytest.mark.integration

CREATE = (
    "mutation($input: ApiKeyInput!) { createApiKey(input: $input)"
    " { secret key { id prefix scopes contentScopes name expiresAt revokedAt } } }"
)
REVOKE = "mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }"
TICKS = "subscription { ticks(count: 1, intervalMs: 0) }"


def create(gql: GraphQLClient, **fields: object) -> dict[str, Any]:
    created: dict[str, Any] = gql.data(CREATE, input=fields)["createApiKey"]
    return created


def test_created_key_works_with_its_scopes_and_is_listed_without_secret(
    http: httpx.Client, gql: GraphQLClient
) -> None:
    created = create(gql, name="reader", scopes=["search"], contentScopes=["org:acme"])
    key = created["key"]
    assert isinstance(created["secret"], str) and created["secret"].startswith("trk_")
    assert key == {**key, "scopes": ["search"], "contentScopes": ["org:acme"], "name": "reader"}
    reader = GraphQLClient(http, str(created["secret"]))
    assert reader.data("{ collections { name } }") == {"collections": []}
    assert reader.error_code('mutation { createCollection(name: "x") { id } }') == "FORBIDDEN"
    listed = gql.data("{ apiKeys { id prefix name } }")["apiKeys"]
    assert {"id": key["id"], "prefix": key["prefix"], "name": "reader"} in listed
    assert "secret" not in str(listed)


def test_revoked_key_is_unauthenticated_at_once(http: httpx.Client, gql: GraphQLClient) -> None:
    created = create(gql, scopes=["search"])
    other = GraphQLClient(http, str(created["secret"]))
    assert other.data("{ collections { name } }")
    revoked = gql.data(REVOKE, id=created["key"]["id"])["revokeApiKey"]
    assert revoked["revokedAt"]
    assert other.error_code("{ collections { name } }") == "UNAUTHENTICATED"


def test_revocation_reaches_an_open_websocket(base_url: str, gql: GraphQLClient) -> None:
    created = create(gql, scopes=["search"])
    with open_ws(base_url, {"apiKey": created["secret"]}) as ws:
        first = subscribe(ws, TICKS)
        assert [m["payload"]["data"]["ticks"] for m in first if m["type"] == "next"] == [1]
        gql.data(REVOKE, id=created["key"]["id"])
        second = subscribe(ws, TICKS)
    errors = [m for m in second if m["type"] in ("next", "error")]
    payload = errors[0]["payload"]
    codes = [
        e["extensions"]["code"]
        for e in (payload if isinstance(payload, list) else payload["errors"])
    ]
    assert codes == ["UNAUTHENTICATED"]


def test_expired_key_is_unauthenticated(http: httpx.Client, stack: Stack) -> None:
    soon = datetime.now(UTC) + timedelta(seconds=1.5)
    secret = make_key(stack, f"exp-{uuid.uuid4().hex[:8]}", KeyRequest(expires_at=soon))
    client = GraphQLClient(http, secret)
    assert client.data("{ collections { name } }") == {"collections": []}
    time.sleep(2)
    assert client.error_code("{ collections { name } }") == "UNAUTHENTICATED"


def test_a_key_grants_no_more_than_it_holds(http: httpx.Client, stack: Stack) -> None:
    tenant = f"grant-{uuid.uuid4().hex[:8]}"
    admin = GraphQLClient(http, make_key(stack, tenant, KeyRequest(("admin", "search"))))
    body = admin.post(CREATE, input={"scopes": ["ingest"]})
    assert body["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    held = create(admin)["key"]
    assert sorted(held["scopes"]) == ["admin", "search"]
    narrow = GraphQLClient(
        http, make_key(stack, tenant, KeyRequest(("admin",), content_scopes=("org:a",)))
    )
    for wider in ({}, {"contentScopes": ["org:a", "org:b"]}):
        assert narrow.post(CREATE, input=wider)["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    assert create(narrow, contentScopes=["org:a"])["key"]["contentScopes"] == ["org:a"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"scopes": ["search", "everything"]}, "scopes"),
        ({"scopes": []}, "scopes"),
        ({"contentScopes": ["org acme"]}, "contentScopes"),
        ({"contentScopes": ["x" * 101]}, "contentScopes"),
        ({"expiresAt": "2020-01-01T00:00:00Z"}, "expiresAt"),
        ({"name": "n" * 201}, "name"),
    ],
)
def test_bad_key_input_names_the_field(
    gql: GraphQLClient, fields: dict[str, object], field: str
) -> None:
    body = gql.post(CREATE, input=fields)
    extensions = body["errors"][0]["extensions"]
    assert (extensions["code"], extensions["field"]) == ("BAD_USER_INPUT", field)
    assert len(gql.data("{ apiKeys { id } }")["apiKeys"]) == 1  # nothing was created


def test_another_tenants_key_cannot_be_revoked(
    gql: GraphQLClient, http: httpx.Client, stack: Stack
) -> None:
    theirs = GraphQLClient(http, make_key(stack, f"other-{uuid.uuid4().hex[:8]}"))
    their_id = theirs.data("{ apiKeys { id } }")["apiKeys"][0]["id"]
    assert gql.error_code(REVOKE, id=their_id) == "NOT_FOUND"
    assert gql.error_code(REVOKE, id="not-a-uuid") == "NOT_FOUND"
    assert theirs.data("{ apiKeys { revokedAt } }")["apiKeys"] == [{"revokedAt": None}]


def test_development_key_has_every_scope(stack: Stack, tmp_path: Path, http: httpx.Client) -> None:
    settings = replace(stack.settings, data_dir=tmp_path)
    key = asyncio.run(ensure_dev_key(settings, stack.endpoints.postgres_url))
    listed = GraphQLClient(http, key).data("{ apiKeys { prefix scopes } }")["apiKeys"]
    mine = [k for k in listed if key.startswith(k["prefix"])]
    assert sorted(mine[0]["scopes"]) == sorted(s.value for s in ALL_SCOPES)
