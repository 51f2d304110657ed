"""What every composer does: turn the question and its sources into claims, in order, and
finally the rest of the draft (brief parts, usage). Claims are not yet verified."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

from app.answers.question import Question
from app.answers.request import Message
from app.answers.results import Claim, Draft, Source


@dataclass(frozen=True)
class ComposeContext:
    question: Question
    sources: list[Source]
    language: str
    embedding_model: str  # the first collection's: the extractive composer's similarities
    history: tuple[Message, ...] = ()
    model: str = "extractive"


class Composer(Protocol):
    def compose(self, context: ComposeContext) -> AsyncIterator[Claim | Draft]:
        """Claims as they are ready, then the draft (whose `claims` may be empty)."""
        ...
