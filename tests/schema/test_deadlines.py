"""Each query and mutation runs within its class's deadline (schema/deadlines.py)."""

from __future__ import annotations

import asyncio
import time

import strawberry

from app.settings import Settings
from schema.deadlines import Deadlines
from schema.errors import ErrorCodes

DEADLINES = Settings.from_env(
    {"TRELLIS_DEADLINE_SEARCH_SECONDS": "0.2", "TRELLIS_DEADLINE_SECONDS": "5"}
).serving.deadlines


@strawberry.type
class _Query:
    @strawberry.field
    async def search(self, seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "found"

    @strawberry.field
    async def collections(self) -> list[str]:
        await asyncio.sleep(0.4)
        return ["a"]


SCHEMA = strawberry.Schema(
    query=_Query, extensions=[lambda: Deadlines(DEADLINES, 45.0), ErrorCodes]
)


async def test_a_field_past_its_deadline_fails_with_timeout_naming_it() -> None:
    started = time.perf_counter()
    result = await SCHEMA.execute("{ search(seconds: 5) }")
    assert time.perf_counter() - started < 1
    [error] = result.errors or []
    assert error.extensions == {"code": "TIMEOUT", "field": "search"}
    assert "0.2 s" in error.message


async def test_a_field_within_its_deadline_answers() -> None:
    result = await SCHEMA.execute("{ search(seconds: 0.01) }")
    assert result.errors is None and result.data == {"search": "found"}


async def test_an_operation_asking_for_several_classes_gets_the_longest_deadline() -> None:
    result = await SCHEMA.execute("{ search(seconds: 0.3) collections }")
    assert result.errors is None and result.data == {"search": "found", "collections": ["a"]}
