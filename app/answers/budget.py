"""A stream's time budget. The budget holds only while the stream works on its next event,
never across a yield: a timeout around a `yield` fires in whatever the consumer is doing
then, and cancels it instead of ending the stream."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from typing import TypeVar

from app.errors import ErrorCode, TrellisError

T = TypeVar("T")


async def within(events: AsyncGenerator[T, None], seconds: float, what: str) -> AsyncIterator[T]:
    """The events until `seconds` have passed; then ANSWER_TIMEOUT, the stream closed (its
    own cleanup, such as charging what it used, has run)."""
    ends = asyncio.get_running_loop().time() + seconds
    try:
        while True:
            try:
                async with asyncio.timeout_at(ends):
                    event = await anext(events)
            except StopAsyncIteration:
                return
            except TimeoutError:
                raise TrellisError(
                    ErrorCode.ANSWER_TIMEOUT, f"{what} took longer than {seconds:g} s"
                ) from None
            yield event
    finally:
        await events.aclose()
