"""Queries generated from the schema itself, and hostile strings in every string argument:
every response is data or a coded error, never INTERNAL_ERROR, and the databases are unchanged.

The property-based queries come from hypothesis-graphql; the hostile strings are put into
every String and ID argument of every query field (inside input objects too), with the
other required arguments at their least values."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_graphql import from_schema, nodes

from app.localdb.stack import Stack
from schema import schema
from tests.helpers import rows
from tests.schema._queries import TEXT_FIELDS, filled_query

pytestmark = pytest.mark.integration
QUERY_FIELDS = sorted(schema._schema.query_type.fields) if schema._schema.query_type else []
HOSTILE = [
    "x') RETURN 1 UNION MATCH (n) DETACH DELETE n //",
    "'; DROP TABLE documents; --",
    "*:* OR name:* AND ~fuzzy^9 [a TO z] {}",
    '{"$where": "1 == 1"}',
    "\u202e\u2066reversed\u2069 \x00\x07\x1b[31m",
    "\ud7ff\ue000 éñ 漢字 🙂",
    "a" * 10_000,
]
COUNTED = ("tenants", "api_keys", "collections", "documents", "chunks", "postings")


def _fingerprint(stack: Stack) -> list[int]:
    return [rows(stack, f"SELECT count(*) FROM {table}")[0][0] for table in COUNTED]


def _post(http: httpx.Client, key: str, query: str) -> httpx.Response:
    return http.post("/graphql", json={"query": query}, headers={"X-API-Key": key})


def _assert_coded(response: httpx.Response) -> None:
    assert response.status_code in (200, 413), response.text
    for error in response.json().get("errors") or []:
        code = (error.get("extensions") or {}).get("code")
        assert code is not None and code != "INTERNAL_ERROR", error


@pytest.fixture(scope="module")
def untouched(stack: Stack, base_url: str) -> list[int]:
    """The databases' row counts before this module's requests."""
    return _fingerprint(stack)


SCALARS = {
    "DateTime": st.datetimes().map(lambda d: nodes.String(d.isoformat())),
    "Date": st.dates().map(lambda d: nodes.String(d.isoformat())),
    "JSON": st.text(max_size=20).map(nodes.String),
}


@given(query=from_schema(schema._schema, fields=QUERY_FIELDS, custom_scalars=SCALARS))
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
def test_generated_queries_get_data_or_coded_errors(
    http: httpx.Client, tenant_key_module: str, untouched: list[int], query: str
) -> None:
    _assert_coded(_post(http, tenant_key_module, query))


@pytest.mark.parametrize("hostile", HOSTILE, ids=lambda h: repr(h[:12]))
def test_hostile_strings_in_every_string_argument_get_coded_errors_and_change_nothing(
    http: httpx.Client, tenant_key_module: str, stack: Stack, hostile: str
) -> None:
    before = _fingerprint(stack)
    answered: list[Any] = []
    for name, field in TEXT_FIELDS:
        response = _post(http, tenant_key_module, filled_query(name, field, hostile, depth=0))
        _assert_coded(response)
        answered.append(name)
    assert len(answered) >= 10
    assert _fingerprint(stack) == before


def test_the_generated_and_hostile_requests_changed_nothing(
    stack: Stack, untouched: list[int]
) -> None:
    assert _fingerprint(stack) == untouched
