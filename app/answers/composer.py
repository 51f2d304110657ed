"""What every composer does: turn the question and its sources into claims, in order, and
finally the rest of the draft (brief parts, usage). Claims are not yet verified."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol
from uuid import UUID

from app.answers.question import Question
from app.answers.request import Message
from app.answers.results import Claim, Draft, Source
from ingest.extraction import Named


@dataclass(frozen=True)
class ComposeContext:
    question: Question
    sources: list[Source]
    language: str
    embedding_model: str  # the first collection's: the extractive composer's similarities
    history: tuple[Message, ...] = ()
    model: str = "extractive"
    # What ingest's entity model found in each source's chunk, in offsets into its text; a
    # chunk not yet read by ingest is missing, and the composer runs the model itself.
    named: Mapping[UUID, list[Named]] = field(default_factory=dict)


class Composer(Protocol):
    def compose(self, context: ComposeContext) -> AsyncIterator[Claim | Draft]:
        """Claims as they are ready, then the draft (whose `claims` may be empty)."""
        ...
