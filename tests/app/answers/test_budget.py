"""A stream's budget (app/answers/budget.py) ends the stream, never the consumer's work."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

from app.answers.budget import within
from app.errors import ErrorCode, TrellisError


async def _events(closed: list[bool], pause: float) -> AsyncGenerator[int, None]:
    try:
        yield 1
        await asyncio.sleep(pause)
        yield 2
    finally:
        closed.append(True)


async def _read(seconds: float, pause: float, consumer: float) -> tuple[list[int], list[bool]]:
    seen: list[int] = []
    closed: list[bool] = []
    try:
        async for event in within(_events(closed, pause), seconds, "the answer"):
            seen.append(event)
            await asyncio.sleep(consumer)  # the client's side: never cancelled by the budget
            seen.append(-event)
    except TrellisError as error:
        assert error.code is ErrorCode.ANSWER_TIMEOUT
        assert error.message == f"the answer took longer than {seconds:g} s"
        seen.append(0)
    return seen, closed


def test_a_stream_past_its_budget_ends_with_answer_timeout_and_its_cleanup_runs() -> None:
    seen, closed = asyncio.run(_read(0.2, 5.0, 0.0))
    assert seen == [1, -1, 0] and closed == [True]


def test_the_consumer_s_work_is_never_cut_off() -> None:
    seen, closed = asyncio.run(_read(0.1, 0.0, 0.3))
    assert seen == [1, -1, 0] and closed == [True]  # the consumer finished; then the timeout


def test_a_stream_within_its_budget_runs_to_its_end() -> None:
    seen, closed = asyncio.run(_read(5.0, 0.0, 0.0))
    assert seen == [1, -1, 2, -2] and closed == [True]
