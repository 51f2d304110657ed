"""A NUL character in any argument or variable is refused before anything runs, naming it;
an ingest's documents are judged one by one instead (schema/nul_bytes.py)."""

from __future__ import annotations

from typing import Any

import pytest

from schema import schema

SEARCH = 'query($q: String!) { search(input: {collections: ["c"], query: $q}) { total } }'
INGEST = (
    "mutation($docs: [DocumentInput!]!) {"
    ' ingestDocuments(collection: "c", documents: $docs) { job { id } } }'
)


@pytest.mark.parametrize(
    ("query", "variables", "field"),
    [
        ('{ collection(name: "a\\u0000b") { name } }', {}, "name"),
        ('{ search(input: {collections: ["c"], query: "a\\u0000"}) { total } }', {}, "input"),
        (SEARCH, {"q": "a\x00"}, "q"),
    ],
)
async def test_a_nul_anywhere_is_bad_input_naming_where(
    query: str, variables: dict[str, Any], field: str
) -> None:
    result = await schema.execute(query, variable_values=variables)
    [error] = result.errors or []
    assert error.extensions == {"code": "BAD_USER_INPUT", "field": field}
    assert "U+0000" in error.message


@pytest.mark.parametrize("text", ["a\ud800b", "\udfff", "ok \udc80 then"])
async def test_a_lone_surrogate_in_a_variable_is_bad_input_naming_it(text: str) -> None:
    result = await schema.execute(SEARCH, variable_values={"q": text})
    [error] = result.errors or []
    assert error.extensions == {"code": "BAD_USER_INPUT", "field": "q"}
    assert "lone surrogate" in error.message


async def test_an_ingest_s_documents_are_left_to_be_judged_one_by_one() -> None:
    docs = [{"externalId": "a", "text": "binary\x00data"}]
    result = await schema.execute(INGEST, variable_values={"docs": docs})
    codes = [(e.extensions or {}).get("code") for e in result.errors or []]
    assert "BAD_USER_INPUT" not in codes  # it ran (and failed: no context, no database)
