"""What a body's first bytes tell (schema/_body_prefix.py): a request whose query text is
read and ingests nothing cannot use the ingest cap; one whose query is not read yet may."""

from __future__ import annotations

import json

import pytest

from schema._body_prefix import may_ingest
from tests.helpers import INGEST

SEARCH = 'query { search(input: {collections: ["c"], query: "x"}) { total } }'
BIG = {"docs": [{"externalId": "a", "text": "y" * 5000}]}


def _prefix(body: dict[str, object], size: int = 3000) -> bytes:
    return json.dumps(body).encode()[:size]


@pytest.mark.parametrize(
    ("body", "may"),
    [
        ({"query": INGEST, "variables": BIG}, True),
        ({"query": SEARCH, "variables": BIG}, False),
        ({"variables": BIG, "query": SEARCH}, True),  # the query is past the prefix
        ({"operationName": "a", "query": INGEST + " query b { collections { name } }"}, True),
        ({"query": "mutation { ingestDocuments" + " " * 5000}, False),  # query text cut
        ({"query": INGEST + " " * 1100}, False),  # whole, but longer than the small cap
        ({"query": "{ this is not GraphQL", "variables": BIG}, False),
        ({"query": 42, "variables": BIG}, False),
    ],
)
def test_the_query_text_read_decides(body: dict[str, object], may: bool) -> None:
    assert may_ingest(_prefix(body), 1024) is may


def test_a_body_that_is_not_a_json_object_may_not_ingest() -> None:
    assert not may_ingest(b'["query", ' + b"x" * 2000, 1024)
    assert not may_ingest(b"x" * 2000, 1024)


def test_a_prefix_cut_inside_a_key_or_a_character_waits_for_the_rest() -> None:
    variables = json.dumps({"variables": {"t": "é" * 10}}).encode()
    assert may_ingest(variables[:-1] + b', "que', 1024)
    assert may_ingest(b'{"variables": {"t": "' + "é".encode()[:1], 1024)
