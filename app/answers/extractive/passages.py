"""The retrieved passages as the engine reads them: each source's text, where that text sits
in its document, and the sentences a quote is cut from."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from app.answers.results import Quote, QuoteSpan, Source
from ingest.analyzer import analyze
from ingest.titles import without_qualifier
from retrieval.sentences import Sentence, sentences


@dataclass(frozen=True)
class Passage:
    source: Source
    # Its place in the retrieval's ranking, from 0; None when no ranking placed it: a
    # passage looked up by a bridge's name, or a chunk of a document read whole.
    place: int | None = None

    @property
    def text(self) -> str:
        return self.source.hit.text

    @property
    def ref(self) -> str:
        return self.source.ref

    @property
    def subject(self) -> str:
        """What its document is about by its title: "Kiss and Tell" of "Kiss and Tell (1945
        film)"."""
        return without_qualifier(self.source.hit.document.title)

    @cached_property
    def terms(self) -> frozenset[str]:
        """Its analyzed terms, title included: relevance reads them once per bridge tried."""
        return frozenset(analyze(f"{self.source.hit.document.title}\n{self.text}"))

    @cached_property
    def sentences(self) -> list[Sentence]:
        return sentences(self.text)

    def sentence_at(self, start: int, end: int) -> Sentence:
        """The sentence holding characters start..end, or the sentences they run across
        joined into one quote."""
        inside = [s for s in self.sentences if s.end > start and s.start < end]
        if not inside:
            return Sentence(start, end, self.text[start:end])
        first, last = inside[0].start, inside[-1].end
        return Sentence(first, last, self.text[first:last])

    def in_one_sentence(self, start: int, end: int) -> bool:
        """Whether characters start..end lie within one sentence: an answer never runs on
        into the next ("Maren Olsvik and starring Per Aasen. It was shot near Ålesund")."""
        return sum(s.end > start and s.start < end for s in self.sentences) <= 1

    def cited_at(self, start: int, end: int) -> Cited:
        return Cited(self, self.sentence_at(start, end))

    def quote(self, sentence: Sentence) -> Quote:
        offset = next((s.start for s in self.source.hit.spans if s.unit == "CHARS"), 0)
        span = QuoteSpan(
            self.source.hit.document.id, "CHARS", offset + sentence.start, offset + sentence.end
        )
        return Quote(self.ref, sentence.text, span)


@dataclass(frozen=True)
class Cited:
    """A sentence the answer quotes, with the passage it is from."""

    passage: Passage
    sentence: Sentence


def passages_of(sources: list[Source], *, ranked: bool) -> list[Passage]:
    """The sources that hold text; `ranked`: the sources are in the retrieval's order, and
    each passage keeps its place in it."""
    return [
        Passage(s, place if ranked else None)
        for place, s in enumerate(sources)
        if s.hit.text.strip()
    ]
