"""Bridge hops: when the best span names a document that was not read with the question
("directed by Ada Ray", and no passage about Ada Ray was read), that document's passages
are read with the question, and every span competes again. They come from the other
retrieved passages, else from a lookup of the name in the collections answered from.

A question about the bridge itself ("who directed X?") keeps the bridge: the new passage
rarely answers it better. One about something of the bridge's ("where was the director of
X born?") is answered in the bridge's own passage."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from app.answers.composer import Lookup
from app.answers.extractive import confidence
from app.answers.extractive.passages import Passage
from app.answers.extractive.reader import Span
from app.answers.extractive.relevance import relevance

Read = Callable[[str, list[Passage], list[float]], Awaitable[list[Span]]]


@dataclass(frozen=True)
class Reading:
    """What a read saw: its spans, most probable first, the passages they index, and each
    passage's weight (app/answers/extractive/relevance.py)."""

    spans: list[Span]
    passages: list[Passage]
    weights: list[float]


async def follow(
    question: str, reading: Reading, read: Read, lookup: Lookup, elsewhere: list[Passage]
) -> Reading:
    """The reading after one hop from its best span, if that leads anywhere new."""
    spans, passages = reading.spans, reading.passages
    if not spans or spans[0].confidence < confidence.QUOTE_FLOOR:
        return reading
    bridge = spans[0].text.strip().casefold()
    if any(p.subject.casefold() == bridge for p in passages):
        return reading  # its passage was read already
    read_already = {p.source.hit.chunk_id for p in passages}
    found = [
        p for p in elsewhere
        if p.subject.casefold() == bridge and p.source.hit.chunk_id not in read_already
    ]
    if not found:
        known = read_already | {p.source.hit.chunk_id for p in elsewhere}
        found = [Passage(s) for s in await lookup(spans[0].text.strip())]
        found = [p for p in found if p.source.hit.chunk_id not in known]
    if not found:
        return reading
    # The bridge stands for a part of the question ("the director of X" is Ada Ray), so its
    # passage is weighed against the question with the bridge's name added.
    asked = f"{question} {spans[0].text}"
    weights = relevance(asked, [*passages, *found])[len(passages) :]
    moved = [_moved(s, len(passages)) for s in await read(question, found, weights)]
    return Reading(
        sorted([*spans, *moved], key=lambda s: -s.probability),
        [*passages, *found],
        [*reading.weights, *weights],
    )


def _moved(span: Span, by: int) -> Span:
    return replace(span, passage=span.passage + by)
