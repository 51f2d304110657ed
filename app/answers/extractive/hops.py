"""Bridge hops: when the best span names a document that was not read with the question
("directed by Ada Ray", and no passage about Ada Ray was read), that document's passages
are read with the question, and every span competes again. They come from the other
retrieved passages, else from a lookup of the name in the collections answered from.

A question about the bridge itself ("who directed X?") keeps the bridge: the new passage
rarely answers it better. One about something of the bridge's ("where was the director of
X born?") is answered in the bridge's own passage. Where the question's parse shows the description
the bridge answers ("the director of X"), that passage is read with the bridge in the
description's place ("where was Ada Ray born?"), a question a single passage answers: the
reader was trained on such questions, and read with the whole question it answered the
description again (bench/RESULTS.md). The description is asked on its own first ("who is the
director of X?", in X's passages), since the read of the whole question answers the outer
question and its best spans often miss the bridge; the spans of that read are the fallback."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from app.answers.composer import Describe, Lookup
from app.answers.extractive import confidence
from app.answers.extractive.passages import Passage
from app.answers.extractive.reader import Span
from app.answers.extractive.relevance import relevance, rescaled
from retrieval.title_links import mentions

BRIDGES = 3  # the best answers a hop may start from; each may cost a lookup
Read = Callable[[str, list[Passage], list[float]], Awaitable[list[Span]]]


@dataclass(frozen=True)
class Reading:
    """What a read saw: its spans, most probable first, the passages they index, and each
    passage's weight (app/answers/extractive/relevance.py)."""

    spans: list[Span]
    passages: list[Passage]
    weights: list[float]


@dataclass(frozen=True)
class Ways:
    """What a hop may do: read, look a name up among the documents, take the passages
    retrieved but not read, and find the description a name anchors in the question."""

    read: Read
    lookup: Lookup
    describe: Describe
    elsewhere: list[Passage]


@dataclass(frozen=True)
class _Bridge:
    name: str
    subject: str  # of the passage the name was read in


async def follow(question: str, reading: Reading, ways: Ways) -> Reading:
    """The reading after a hop from each of its best few answers that leads anywhere: the
    bridge need not be the best span ("where was the director of X born?" reads a place
    first, "near Ålesund", and the director's name after it). A bridge that stands for a
    description of the question answers it in its own passage (`_described`). Before them,
    a description the question's parse shows is asked on its own (`_unfolded`)."""
    unfolded = await _unfolded(question, reading, ways)
    if unfolded is not None:
        return unfolded
    for bridge in _bridges(reading):
        pages = await _pages(bridge.name, reading.passages, ways)
        # A bridge with no passages of its own has nothing to read the rewritten question in.
        asked = await _asked(question, bridge, ways.describe) if pages else None
        described = await _described(asked, bridge.name, reading, pages, ways)
        if described is not None:
            return described
        reading = await _hop(question, bridge.name, reading, pages, ways)
    return reading


def _bridges(reading: Reading) -> list[_Bridge]:
    found: list[_Bridge] = []
    for span in reading.spans:
        if span.confidence < confidence.QUOTE_FLOOR or len(found) == BRIDGES:
            break
        name = span.text.strip()
        if name.casefold() not in {b.name.casefold() for b in found}:
            found.append(_Bridge(name, reading.passages[span.passage].subject))
    return found


async def _described(
    asked: str | None, bridge: str, reading: Reading, pages: list[Passage], ways: Ways
) -> Reading | None:
    """The bridge's own passages read with the question the bridge makes of it (`asked`),
    first, and then what was read before but the bridge itself (the question asks something
    of it, so it is not the answer); None when the question has no description the bridge
    answers, or its passages answer nothing."""
    if asked is None or not pages:
        return None
    weights = relevance(asked, pages)
    spans = await ways.read(asked, pages, weights)
    if not spans or spans[0].confidence < confidence.QUOTE_FLOOR:
        return None
    others = [_moved(s, len(pages)) for s in reading.spans if not _is(s.text, bridge)]
    return Reading([*spans, *others], [*pages, *reading.passages], [*weights, *reading.weights])


async def _asked(question: str, bridge: _Bridge, describe: Describe) -> str | None:
    """The question with the bridge in place of the description it answers: "in which town
    did Ada Ray retire?" for "in which town did the architect of T retire?", with Ada Ray
    read in T's passage. None where the question names the bridge itself, or the description is not
    anchored by the name of the passage the bridge was read in."""
    if bridge.name.casefold() in question.casefold():
        return None
    span = await _description(question, bridge.subject, describe)
    return None if span is None else _in_place(question, span, bridge.name)


def _in_place(question: str, description: tuple[int, int], name: str) -> str:
    return f"{question[: description[0]]}{name}{question[description[1] :]}"


async def _description(question: str, subject: str, describe: Describe) -> tuple[int, int] | None:
    """The description in the question that a name of `subject` anchors, if any."""
    for start, end in mentions(question, subject):
        span = await describe(question, start, end)
        if span is not None:
            return span
    return None


async def _unfolded(question: str, reading: Reading, ways: Ways) -> Reading | None:
    """The description asked on its own first, in the passages of the name that anchors it
    ("who is the architect of T?" in T's), and its answer read as the bridge. The first read
    answers the whole question, so the bridge is often not among its best spans (it gave
    the architect's nationality, not the architect)."""
    for subject, (start, end) in _anchors(question, [*reading.passages, *ways.elsewhere]):
        span = await ways.describe(question, start, end)
        if span is None:
            continue
        pages = await _pages(subject, reading.passages, ways)
        name = await _answer_to(question[span[0] : span[1]], pages, ways.read)
        if name is None or name.casefold() in question.casefold():
            continue
        asked = _in_place(question, span, name)
        bridge_pages = await _pages(name, reading.passages, ways)
        described = await _described(asked, name, reading, bridge_pages, ways)
        if described is not None:
            return described
    return None


def _anchors(question: str, passages: list[Passage]) -> list[tuple[str, tuple[int, int]]]:
    """The passages' subjects the question names, each with where. A name within a longer
    one the question names is not named there ("Grey Fennel" within "The Return of Grey
    Fennel"): the longer name is what the question writes."""
    subjects = dict.fromkeys(p.subject for p in passages if p.subject)
    named = [(subject, at) for subject in subjects for at in mentions(question, subject)]
    return [(subject, at) for subject, at in named if not any(_within(at, o) for _, o in named)]


def _within(inner: tuple[int, int], outer: tuple[int, int]) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1] and inner != outer


async def _answer_to(description: str, pages: list[Passage], read: Read) -> str | None:
    """What the description names in the pages: asked as a person and as a thing, since
    the parse does not say which it is, and the reader's surer answer taken. Both are read
    at once: a read of a passage or two leaves a core idle while its last batch runs."""
    asked = (f"Who is {description}?", f"What is {description}?")
    reads = await asyncio.gather(*(read(a, pages, relevance(a, pages)) for a in asked))
    firsts = [spans[0] for spans in reads if spans]
    best = max(firsts, key=lambda s: s.confidence, default=None)
    if best is None or best.confidence < confidence.QUOTE_FLOOR:
        return None
    return best.text.strip()


async def _pages(name: str, passages: list[Passage], ways: Ways) -> list[Passage]:
    """The bridge's own passages: those titled with its name, read or retrieved already,
    else looked up (what a lookup finds is new to the answer). Found once for both ways a
    bridge is followed: a second lookup of the name would find only what the first added."""
    titled = {p.source.hit.chunk_id: p for p in [*passages, *ways.elsewhere] if _titled(p, name)}
    return list(titled.values()) or [Passage(s) for s in await ways.lookup(name)]


def _is(text: str, name: str) -> bool:
    return text.strip().casefold() == name.casefold()


async def _hop(
    question: str, bridge: str, reading: Reading, pages: list[Passage], ways: Ways
) -> Reading:
    """The bridge's pages read with the question, every span competing again; when one was
    read already, the spans weighed again instead (`_reweighed`)."""
    if any(_titled(p, bridge) for p in reading.passages):
        return _reweighed(question, bridge, reading)
    # No passage read is titled with the bridge, so none of its pages was read.
    if not pages:
        return reading
    passages = [*reading.passages, *pages]
    weights = _bridged(question, bridge, passages)[len(reading.passages) :]
    read = await ways.read(question, pages, weights)
    moved = [_moved(s, len(reading.passages)) for s in read]
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


def _titled(passage: Passage, name: str) -> bool:
    return passage.subject.casefold() == name.casefold()


def _ranked(spans: list[Span]) -> list[Span]:
    return sorted(spans, key=lambda s: -s.probability)


def _moved(span: Span, by: int) -> Span:
    return replace(span, passage=span.passage + by)
