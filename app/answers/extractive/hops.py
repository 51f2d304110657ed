"""Bridge hops: when the best span names a document the passages do not include ("directed
by Ada Ray", and no passage about Ada Ray was retrieved), that document's passages are
looked up and read with the question, and every span competes again. A question about the
bridge itself ("who directed X?") keeps the bridge: the new passage rarely answers it
better. One about something of the bridge's ("where was the director of X born?") is
answered in the bridge's own passage."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from app.answers.composer import Lookup
from app.answers.extractive import confidence
from app.answers.extractive.passages import Passage
from app.answers.extractive.reader import Span

Read = Callable[[str, list[Passage]], Awaitable[list[Span]]]


async def follow(
    question: str, spans: list[Span], passages: list[Passage], read: Read, lookup: Lookup
) -> tuple[list[Span], list[Passage]]:
    """The spans and passages after one hop from the best span, if it leads anywhere new."""
    if not spans or spans[0].probability < confidence.QUOTE_FLOOR:
        return spans, passages
    bridge = spans[0].text.strip()
    if any(p.subject.casefold() == bridge.casefold() for p in passages):
        return spans, passages  # its passage was read already
    known = {p.source.hit.chunk_id for p in passages}
    found = [Passage(s) for s in await lookup(bridge) if s.hit.chunk_id not in known]
    if not found:
        return spans, passages
    read_there = await read(question, found)
    moved = [_moved(s, len(passages)) for s in read_there]
    return sorted([*spans, *moved], key=lambda s: -s.probability), [*passages, *found]


def _moved(span: Span, by: int) -> Span:
    return Span(span.passage + by, span.start, span.end, span.text, span.probability)
