"""A token bomb is refused by a count that never exceeds the parser's own, and a text at the
limit is still parsed and run."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from graphql import Source, TokenKind
from graphql.error import GraphQLSyntaxError
from graphql.language import Lexer
from hypothesis import given
from hypothesis import strategies as st

from schema import MAX_TOKENS, build_schema
from schema.token_limit import token_count

SCHEMA = build_schema()
PIECES = [
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ":",
    "=",
    "@",
    "$",
    "!",
    "&",
    "|",
    "...",
    ",",
    " ",
    "\n",
    "health",
    "_a1",
    "0",
    "-12",
    "3.5e-2",
    '"a b"',
    '"es\\"c"',
    '"""block "" \\""" x"""',
    "# comment { } \n",
    "\u05d0",
    "\ufeff",
]


def _parser_count(text: str) -> int | None:
    """The tokens graphql-core's lexer reads, comments included as its parser counts them;
    None if it cannot read them."""
    lexer = Lexer(Source(text))
    try:
        while lexer.advance().kind != TokenKind.EOF:
            pass
    except GraphQLSyntaxError:
        return None
    token, count = lexer.token.prev, 0
    while token is not None and token.kind != TokenKind.SOF:
        count, token = count + 1, token.prev
    return count


@given(st.lists(st.sampled_from(PIECES), max_size=60))
def test_the_count_never_exceeds_the_parsers(pieces: list[str]) -> None:
    text = "".join(pieces)
    parsed = _parser_count(text)
    if parsed is not None:
        assert token_count(text, 10_000) == parsed


def test_the_count_stops_one_past_the_limit() -> None:
    assert token_count("a " * 100, 10) == 11


def _run(query: str, name: str | None = None) -> Any:
    return asyncio.run(SCHEMA.execute(query, operation_name=name))


def test_a_bomb_is_refused_in_the_parsers_words_without_a_parse() -> None:
    bomb = "query Bomb { " + " ".join("health { ok }" for _ in range(1500)) + " }"
    started = time.perf_counter()
    result = _run(bomb, "Bomb")
    assert time.perf_counter() - started < 5  # loose: the speed goal is bench.reliability's
    [error] = result.errors
    assert error.extensions["code"] == "GRAPHQL_VALIDATION_FAILED"
    assert f"more than {MAX_TOKENS} tokens" in error.message
    assert result.data is None


def _commented(tokens: int) -> str:
    """`{ __typename }` padded with comments (which the parser counts) to so many tokens."""
    return "{ __typename " + "# c\n" * (tokens - 3) + "}"


def test_a_text_at_the_limit_runs_and_one_past_it_is_refused() -> None:
    result = _run(_commented(MAX_TOKENS))
    assert result.errors is None and result.data == {"__typename": "Query"}
    assert "tokens" in _run(_commented(MAX_TOKENS + 1)).errors[0].message


async def _first_event_errors(query: str) -> Any:
    stream = await SCHEMA.subscribe(query, operation_name="S")
    assert not hasattr(stream, "errors")  # the refusal is the stream's one event
    async for event in stream:
        return event.errors


def test_a_subscription_bomb_is_refused_as_its_event() -> None:
    bomb = "subscription S { " + " ".join("health { ok }" for _ in range(1500)) + " }"
    [error] = asyncio.run(_first_event_errors(bomb))
    assert error.extensions["code"] == "GRAPHQL_VALIDATION_FAILED"
