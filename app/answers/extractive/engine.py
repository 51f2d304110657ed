"""The extractive engine: answers read from the passages by the span reader, with no LLM.
Deterministic: the same passages and question give the same answer.

1. A question that compares two things the passages are about reads a value for each side
   and compares them (comparison.py); one that asks what two things have in common answers
   with a value both sides' reads hold.
2. Otherwise the reader reads every passage with the question; the most probable span is
   the short answer, its sentence the quote (drafting.py). When that span names another
   document's subject, the reader reads that document with the question too: a bridge hop
   (hops.py).
3. In a language the reader was not trained on, the best sentences by shared terms are
   quoted, with the number or date the question's own words ask for (fallback.py).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from itertools import takewhile

from app.answers import labels
from app.answers.composer import ComposeContext
from app.answers.extractive import confidence, fallback, hops
from app.answers.extractive.comparison import (
    Comparison,
    Side,
    comparison_of,
    first_wins,
    same_value,
    value_of,
    within,
    yes_or_no,
)
from app.answers.extractive.drafting import claim, draft_of
from app.answers.extractive.hops import Reading
from app.answers.extractive.passages import Cited, Passage, passages_of
from app.answers.extractive.reader import (
    LANGUAGES,
    SPANS_PER_WINDOW,
    Span,
    SpanReader,
    shared_reader,
)
from app.answers.extractive.relevance import relevance, weighed
from app.answers.results import Claim, Draft

SIDE_PASSAGES = 3
SIDE_SPANS = 50  # spans a window offers a side's value


@dataclass(frozen=True)
class _SideRead:
    side: Side
    span: Span
    passage: Passage  # the span's
    value: float | None

    @property
    def cited(self) -> Cited:
        return self.passage.cited_at(self.span.start, self.span.end)


class ExtractiveComposer:
    def __init__(
        self,
        short_floor: float = confidence.SHORT_FLOOR,
        reader: Callable[[], SpanReader] = shared_reader,
    ) -> None:
        self._short_floor = short_floor
        self._reader = reader  # called on first use: loading the weights takes a second

    async def warm_up(self) -> None:
        """The weights loaded, and one passage read: a first answer waited over a second."""
        await asyncio.to_thread(self._reader().read, "What is warm?", ["The model is warm."])

    async def compose(self, context: ComposeContext) -> AsyncIterator[Claim | Draft]:
        draft = await self.draft(context)
        for item in draft.claims:
            yield item
        yield draft

    async def draft(self, context: ComposeContext) -> Draft:
        passages = passages_of(context.sources, ranked=not context.whole)
        if not passages:
            return Draft(abstain_reason="NO_CONTEXT")
        if context.language not in LANGUAGES:
            return fallback.draft(context.question, passages, context.language)
        comparison = comparison_of(context.question, [p.subject for p in passages])
        if comparison is not None:
            compared = await self._compare(context, comparison, passages)
            if compared is not None:
                return compared
        first = await self._first(context.question, passages)
        read = await hops.follow(context.question, first, self._ways(context, []))
        may = _may_answer(context.question, comparison, read.spans)
        floor = self._short_floor if may else math.inf
        return draft_of(read.spans, read.passages, context.language, floor)

    async def _first(
        self, question: str, passages: list[Passage], per_window: int = SPANS_PER_WINDOW
    ) -> Reading:
        weights = relevance(question, passages)
        spans = await self._read(question, passages, weights, per_window)
        return Reading(spans, passages, weights)

    def _ways(self, context: ComposeContext, elsewhere: list[Passage]) -> hops.Ways:
        return hops.Ways(self._read, context.lookup, context.describe, elsewhere)

    async def _read(
        self,
        question: str,
        passages: list[Passage],
        weights: list[float],
        per_window: int = SPANS_PER_WINDOW,
    ) -> list[Span]:
        texts = [p.text for p in passages]
        spans = await asyncio.to_thread(self._reader().read, question, texts, per_window)
        whole = [s for s in spans if passages[s.passage].in_one_sentence(s.start, s.end)]
        return weighed(whole, weights, passages)

    async def _compare(
        self, context: ComposeContext, comparison: Comparison, passages: list[Passage]
    ) -> Draft | None:
        """The verdict of two values read, whenever both are, or the value both sides hold:
        the reader's confidence in a value of a kind it was not asked for outright ("which
        came first?") says little of whether the verdict is right, so it settles the answer
        but gives no floor. The sides are read at once: each is its own reads and lookups."""
        sides = (self._side(context, comparison, s, passages) for s in comparison.sides)
        first, second = await asyncio.gather(*sides)
        if first is None or second is None:
            return None
        if comparison.shared:
            reads = _in_common(comparison, first, second)
            return None if reads is None else _compared(_shorter(reads), reads, context.language)
        one, other = comparison.sides
        a, b = _value(comparison, one, first), _value(comparison, other, second)
        if a is None or b is None:
            return None
        short = _verdict(comparison, a, b, context.language)
        return None if short is None else _compared(short, (a, b), context.language)

    async def _side(
        self, context: ComposeContext, comparison: Comparison, side: Side, passages: list[Passage]
    ) -> Reading | None:
        """The side's read: the passages about it, read with the question asked of it."""
        about = _about(side, passages)
        if not about:
            return None
        asked = comparison.question_for(context.question, side)
        # A value of the kind compared may rank below the reader's first few spans.
        first = await self._first(asked, about, SIDE_SPANS)
        return await hops.follow(asked, first, self._ways(context, passages))


def _may_answer(question: str, comparison: Comparison | None, spans: list[Span]) -> bool:
    """Whether the best span may be the short answer: not of a yes-or-no question, nor of a
    comparison that gave no verdict but by what it may be answered by. Its sentences are
    otherwise quoted without one."""
    if comparison is not None and spans:
        return comparison.answered_by(spans[0].text)
    return not yes_or_no(question)


def _value(comparison: Comparison, side: Side, read: Reading) -> _SideRead | None:
    """The side's most probable span worth quoting that holds a value of the kind compared,
    or, for an order, its most probable span holding a date or number at all: the question
    asked of a side is rewritten ("When came first, A?"), and the reader's estimate that a
    page answers a question unlike any it was trained on is no floor for a value the page's
    own spans rank first."""
    order = comparison.order
    if order is None:
        best = next(iter(_worth(read)), None)
        return None if best is None else _SideRead(side, best, read.passages[best.passage], None)
    for span in read.spans:
        value = value_of(span.text, order)
        if value is not None:
            return _SideRead(side, span, read.passages[span.passage], value)
    return None


def _in_common(
    comparison: Comparison, first: Reading, second: Reading
) -> tuple[_SideRead, _SideRead] | None:
    """The most probable pair of spans, one of each side's read, of which one holds the other
    whole: what "what do A and B have in common?" asks is a value both sides' passages give.
    None where no span of one side agrees with one of the other's."""
    theirs = _worth(second)
    pairs = [(a, b) for a in _worth(first) for b in theirs if within(a.text, b.text)]
    if not pairs:
        return None
    a, b = max(pairs, key=lambda pair: pair[0].probability * pair[1].probability)
    one, other = comparison.sides
    return (
        _SideRead(one, a, first.passages[a.passage], None),
        _SideRead(other, b, second.passages[b.passage], None),
    )


def _shorter(reads: tuple[_SideRead, _SideRead]) -> str:
    """The value both hold: the shorter of two spans of which one holds the other."""
    return min((r.span.text.strip() for r in reads), key=lambda text: len(text.split()))


def _worth(read: Reading) -> list[Span]:
    """The read's spans, most probable first, up to the first not worth quoting."""
    return list(takewhile(lambda span: span.confidence >= confidence.QUOTE_FLOOR, read.spans))


def _about(side: Side, passages: list[Passage]) -> list[Passage]:
    """The passages about a side: its own page's, titled with it, where there is one (another
    page's dates are its own: a book's release, not its author's birth); else those naming it."""
    name = side.name.casefold()
    titled = [p for p in passages if p.subject.casefold() == name]
    naming = [p for p in passages if name in p.text.casefold()]
    return (titled or naming)[:SIDE_PASSAGES]


def _verdict(
    comparison: Comparison, first: _SideRead, second: _SideRead, language: str
) -> str | None:
    order = comparison.order
    if order is not None:
        if first.value is None or second.value is None:
            return None
        wins = first_wins(order, (first.value, second.value))
    elif comparison.polar:
        same = same_value(first.span.text, second.span.text)
        return labels.label(language, "yes" if same else "no")
    else:  # which side holds what the question asks: the one the reader is surer of
        wins = first.span.confidence >= second.span.confidence
    if comparison.polar:
        return labels.label(language, "yes" if wins else "no")
    return (first if wins else second).side.name


def _compared(short: str, reads: tuple[_SideRead, _SideRead], language: str) -> Draft:
    """Each side's sentence quoted; the first claim gives the verdict and cites both."""
    quoted = [r.cited for r in reads]
    refs = tuple(dict.fromkeys(q.passage.ref for q in quoted))
    claims = [claim(quoted[0], short, language, refs)]
    if quoted[1].sentence != quoted[0].sentence or quoted[1].passage.ref != refs[0]:
        claims.append(claim(quoted[1], None, language))
    sure = min(r.span.confidence for r in reads)
    return Draft(
        claims=claims,
        short_answer=short,
        support=[q.passage.quote(q.sentence) for q in quoted],
        settled=sure >= confidence.SETTLED,
    )
