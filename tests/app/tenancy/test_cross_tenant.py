"""Every query field that takes a string (an id, a collection, a filter) is called by one
tenant with another tenant's values: nothing of the other tenant comes back. The calls are
built from the schema (tests/schema/_queries.py), so a field added later is covered too."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from tests.graph_helpers import wait_until_graphed
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection
from tests.schema._queries import TEXT_FIELDS, filled_query

pytestmark = pytest.mark.integration
MARKER = "Quillon Marsh"  # a name only the owner's document holds
TEXT = f"{MARKER} founded the Tarrow Ferry Company in Dunmere. The ferry crosses the Lune."


def _owned(http: httpx.Client, stack: Stack) -> tuple[GraphQLClient, list[str], list[str]]:
    """The owner's values to probe with, and the strings that must never reach the other."""
    owner = GraphQLClient(http, make_key(stack, f"owner-{uuid.uuid4().hex[:6]}"))
    name = new_collection(owner)
    done = ingest(owner, name, {"externalId": "ferry", "title": "Tarrow Ferry", "text": TEXT})
    wait_until_graphed(stack, name, 1)
    found = owner.data(
        "query($c: String!, $q: String!) { entities(collection: $c, query: $q) { entity { id } } }",
        c=name,
        q="Quillon Marsh Tarrow Dunmere",
    )["entities"]
    entity = found[0]["entity"]["id"]
    [outcome] = done["outcomes"]
    values = [name, outcome["documentId"], entity, done["job"]["id"], "ferry"]
    return owner, values, [MARKER, "Tarrow", outcome["documentId"], entity]


def _leaks(body: dict[str, Any], secrets: list[str]) -> list[str]:
    data = json.dumps(body.get("data"))
    return [s for s in secrets if s in data]


def test_another_tenant_s_values_reveal_nothing_in_any_query_field(
    http: httpx.Client, stack: Stack, gql: GraphQLClient
) -> None:
    owner, values, secrets = _owned(http, stack)
    document = dict(TEXT_FIELDS)["document"]
    assert _leaks(owner.post(filled_query("document", document, values[1])), secrets)  # it sees
    called = 0
    for name, field in TEXT_FIELDS:
        for value in values:
            body = gql.post(filled_query(name, field, value))
            assert not _leaks(body, secrets), (name, value, body)
            for error in body.get("errors") or []:
                assert error["extensions"]["code"] != "INTERNAL_ERROR", (name, error)
            called += 1
    assert called >= 10 * len(values)
