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
from app.answers.extractive.relevance import relevance, rescaled

BRIDGES = 3  # the best answers a hop may start from; each may cost a lookup
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
    """The reading after a hop from each of its best few answers that leads anywhere: the
    bridge need not be the best span ("where was the director of X born?" reads a place
    first, "near Ålesund", and the director's name after it)."""
    for bridge in _bridges(reading.spans):
        reading = await _hop(question, bridge, reading, read, lookup, elsewhere)
    return reading


def _bridges(spans: list[Span]) -> list[str]:
    names: list[str] = []
    for span in spans:
        if span.confidence < confidence.QUOTE_FLOOR or len(names) == BRIDGES:
            break
        if span.text.strip().casefold() not in {n.casefold() for n in names}:
            names.append(span.text.strip())
    return names


async def _hop(
    question: str,
    bridge: str,
    reading: Reading,
    read: Read,
    lookup: Lookup,
    elsewhere: list[Passage],
) -> Reading:
    if any(_titled(p, bridge) for p in reading.passages):
        return _reweighed(question, bridge, reading)
    found = await _bridge_passages(bridge, reading.passages, lookup, elsewhere)
    if not found:
        return reading
    passages = [*reading.passages, *found]
    weights = _bridged(question, bridge, passages)[len(reading.passages) :]
    moved = [_moved(s, len(reading.passages)) for s in await read(question, found, weights)]
    return Reading(_ranked([*reading.spans, *moved]), passages, [*reading.weights, *weights])


def _bridged(question: str, bridge: str, passages: list[Passage]) -> list[float]:
    """The bridge stands for a part of the question ("the director of X" is Ada Ray), so a
    passage about it is weighed against the question with the bridge's name added."""
    return relevance(f"{question} {bridge}", passages)


def _reweighed(question: str, bridge: str, reading: Reading) -> Reading:
    """A reading whose bridge's own passage was read already: that passage's spans weighed
    again as the bridge's, where that weighs more."""
    bridged = _bridged(question, bridge, reading.passages)
    weights = [
        max(old, new) if _titled(p, bridge) else old
        for p, old, new in zip(reading.passages, reading.weights, bridged, strict=True)
    ]
    spans = [rescaled(s, weights[s.passage], reading.weights[s.passage]) for s in reading.spans]
    return Reading(_ranked(spans), reading.passages, weights)


async def _bridge_passages(
    bridge: str, passages: list[Passage], lookup: Lookup, elsewhere: list[Passage]
) -> list[Passage]:
    """The bridge's passages among the other retrieved ones, else looked up."""
    read_already = {p.source.hit.chunk_id for p in passages}
    found = [
        p for p in elsewhere if _titled(p, bridge) and p.source.hit.chunk_id not in read_already
    ]
    if found:
        return found
    known = read_already | {p.source.hit.chunk_id for p in elsewhere}
    return [p for p in map(Passage, await lookup(bridge)) if p.source.hit.chunk_id not in known]


def _titled(passage: Passage, name: str) -> bool:
    return passage.subject.casefold() == name.casefold()


def _ranked(spans: list[Span]) -> list[Span]:
    return sorted(spans, key=lambda s: -s.probability)


def _moved(span: Span, by: int) -> Span:
    return replace(span, passage=span.passage + by)
