"""A text's parse and validation are cached across a schema's requests, and the limits still
apply to every request that reuses them."""

from __future__ import annotations

import asyncio
from typing import Any

from strawberry.extensions.parser_cache import _get_parse_cache
from strawberry.extensions.validation_cache import _get_validate_cache

from schema import CACHED_TEXT_CHARS, DOCUMENT_CACHE_SIZE, build_schema

SCHEMA = build_schema()
ALIASES = "{ " + " ".join(f"a{n}: health {{ ok }}" for n in range(40)) + " }"  # over 30


def _codes(query: str) -> list[Any]:
    result = asyncio.run(SCHEMA.execute(query))
    return [(e.extensions or {}).get("code", e.message) for e in result.errors or []]


def _hits() -> int:
    cache: Any = _get_validate_cache(DOCUMENT_CACHE_SIZE)  # an lru_cache
    return int(cache.cache_info().hits)


def test_a_refused_text_is_refused_again_from_the_cache() -> None:
    first = _codes(ALIASES)
    hits = _hits()
    assert _codes(ALIASES) == first == ["GRAPHQL_VALIDATION_FAILED"]
    assert _hits() == hits + 1


def test_an_invalid_field_is_refused_again_from_the_cache() -> None:
    first = _codes("{ nosuchfield }")
    hits = _hits()
    assert _codes("{ nosuchfield }") == first and first
    assert _hits() == hits + 1


def test_a_text_that_cannot_be_parsed_keeps_its_code() -> None:
    tokens = "{ " + " ".join("health { ok }" for _ in range(1500)) + " }"  # over 5,000 tokens
    assert _codes(tokens) == ["GRAPHQL_VALIDATION_FAILED"]
    assert _codes("{ health { ok }") == ["GRAPHQL_VALIDATION_FAILED"]  # a syntax error


def test_a_long_text_is_not_kept() -> None:
    cache: Any = _get_parse_cache(DOCUMENT_CACHE_SIZE)
    long = "{ nosuchfield }" + " " * CACHED_TEXT_CHARS
    before = cache.cache_info().currsize
    assert _codes(long) == ["GRAPHQL_VALIDATION_FAILED"]  # parsed and validated all the same
    assert cache.cache_info().currsize == before
