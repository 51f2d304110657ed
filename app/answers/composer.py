"""What every composer does: turn the question and its sources into claims, in order, and
finally the rest of the draft (brief parts, usage). Claims are not yet verified."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

from app.answers.request import Message
from app.answers.results import Claim, Draft, Source


class Lookup(Protocol):
    async def __call__(self, name: str) -> list[Source]:
        """Passages of the documents titled with `name` in the collections answered from,
        numbered on from the answer's sources and added to them, so a claim may cite them."""
        ...


class Describe(Protocol):
    async def __call__(self, question: str, start: int, end: int) -> tuple[int, int] | None:
        """The characters of the description in `question` that the name at `start`..`end`
        anchors, name included ("the architect of T"); None when there is none."""
        ...


async def _nowhere(name: str) -> list[Source]:
    return []


async def _undescribed(question: str, start: int, end: int) -> tuple[int, int] | None:
    return None


@dataclass(frozen=True)
class ComposeContext:
    question: str
    sources: list[Source]
    language: str
    history: tuple[Message, ...] = ()
    model: str = "extractive"
    lookup: Lookup = _nowhere
    describe: Describe = _undescribed
    # The sources are one document read whole (documentAnswer): an LLM reads every one, in
    # reading order, since the document's cap, not the prompt budget, bounds them.
    whole: bool = False


class Composer(Protocol):
    def compose(self, context: ComposeContext) -> AsyncIterator[Claim | Draft]:
        """Claims as they are ready, then the draft (whose `claims` may be empty)."""
        ...

    async def warm_up(self) -> None:
        """Load now what the first answer would otherwise wait for."""
        ...
