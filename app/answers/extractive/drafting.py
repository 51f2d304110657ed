"""A draft from the reader's spans: the best span's sentence quoted and led by the short
answer, the next passages' best sentences as context, and a different answer about as
probable as the best as the other side."""

from __future__ import annotations

from app.answers import labels
from app.answers.extractive import confidence
from app.answers.extractive.passages import Cited, Passage
from app.answers.extractive.reader import Span
from app.answers.results import Claim, Draft, Quote

CONTEXT_QUOTES = 2
_QUOTE_MARKS = {"ja": ("「", "」")}


def cited(passages: list[Passage], span: Span) -> Cited:
    return passages[span.passage].cited_at(span.start, span.end)


def draft_of(
    spans: list[Span], passages: list[Passage], language: str, short_floor: float
) -> Draft:
    """The answer the spans give, most probable first; no answer when none is worth it."""
    if not spans or spans[0].confidence < confidence.QUOTE_FLOOR:
        return Draft(abstain_reason="NO_CONTEXT")
    best = spans[0]
    short = best.text.strip() if best.confidence >= short_floor else None
    answer = cited(passages, best)
    rivals = _rivals(spans, best)
    draft = Draft(
        claims=[claim(answer, short, language)],
        short_answer=short,
        confidence=best.confidence,
        support=[_quote(answer)],
        context=[_quote(c) for c in _context(spans, passages, answer)],
        other_side=[_quote(cited(passages, r)) for r in rivals],
        settled=best.confidence >= confidence.SETTLED and not rivals,
    )
    if short is None:
        draft.gaps.append(labels.label(language, "unsure"))
    return draft


def claim(answer: Cited, short: str | None, language: str, refs: tuple[str, ...] = ()) -> Claim:
    """The quoted sentence, led by the short answer, with its markers."""
    refs = refs or (answer.passage.ref,)
    opening, closing = _QUOTE_MARKS.get(language, ("“", "”"))
    lead = f"{short} — " if short else ""
    markers = " ".join(f"[[{ref}]]" for ref in refs)
    text = f"{lead}{opening}{' '.join(answer.sentence.text.split())}{closing} {markers}"
    return Claim(text, refs)


def _quote(item: Cited) -> Quote:
    return item.passage.quote(item.sentence)


def _rivals(spans: list[Span], best: Span) -> list[Span]:
    """The most probable different answer, when it comes close to the best."""
    key = _key(best.text)
    for span in spans[1:]:
        close = span.confidence >= confidence.RIVAL_SHARE * best.confidence
        if close and _key(span.text) and not _overlaps(_key(span.text), key):
            return [span]
    return []


def _context(spans: list[Span], passages: list[Passage], answer: Cited) -> list[Cited]:
    """The best sentence of other passages the reader found something in."""
    seen = {answer.passage.ref}
    found = []
    for span in spans[1:]:
        passage = passages[span.passage]
        if passage.ref in seen or span.confidence < confidence.QUOTE_FLOOR:
            continue
        seen.add(passage.ref)
        found.append(cited(passages, span))
    return found[:CONTEXT_QUOTES]


def _key(text: str) -> frozenset[str]:
    return frozenset(w for w in "".join(c if c.isalnum() else " " for c in text.casefold()).split())


def _overlaps(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a & b)
