"""How much of what the question asks a passage is about: the share of the question's terms
it holds, in its text or its document's title, each weighted by its rarity among the
retrieved passages. The reader was trained on a question's own paragraph, so it answers
with confidence from a passage about something else ("founded in 1879 by Hester Vale" for
"who founded Orrin Mill?", from the page of another mill); spans rank by their
probability times their passage's relevance to the power RELEVANCE_POWER (2: chosen on the
development sets, SQuAD's F1 of every best span 52.5 at 0, 58.2 at 1, 61.3 at 2, 58.4 at 3)."""

from __future__ import annotations

import math
from dataclasses import replace

from app.answers.extractive.passages import Passage
from app.answers.extractive.reader import Span
from app.answers.request import DEFAULT_TOP_K
from ingest.analyzer import analyze

RELEVANCE_POWER = 2.0
RELEVANCE_FLOOR = 0.05  # a passage with none of the question's terms still counts a little
# The place in the retrieval's ranking at which a passage's spans rank at half the first's:
# the answer's default topK, the passages read at MEDIUM effort (bench/RESULTS.md).
HALF_PLACE = DEFAULT_TOP_K


def relevance(question: str, passages: list[Passage]) -> list[float]:
    asked = set(analyze(question))
    held = [p.terms for p in passages]
    weight = {t: math.log(1 + (len(held) + 1) / (1 + sum(t in h for h in held))) for t in asked}
    total = sum(weight.values())
    if not total:
        return [1.0] * len(passages)
    shares = (sum(w for t, w in weight.items() if t in h) / total for h in held)
    return [max(share, RELEVANCE_FLOOR) for share in shares]


def weighed(spans: list[Span], weights: list[float], passages: list[Passage]) -> list[Span]:
    """The spans weighed by their passages' relevance and places, most probable first."""
    scaled = [_scaled(s, weights[s.passage], _prior(passages[s.passage])) for s in spans]
    return sorted(scaled, key=lambda s: -s.probability)


def _prior(passage: Passage) -> float:
    """How far down the retrieval's ranking a passage's spans rank: the ranking holds what
    the reader does not see (the graph's trails, the dense match, every leg's agreement),
    and the reader, trained on the paragraph that answers, reads a distractor with the same
    confidence as the answer's own passage. More passages read then gave it more to choose
    wrongly from (HIGH below MEDIUM). The confidence does not move: the prior orders the
    candidates, it is not the chance that one is right."""
    return 1.0 if passage.place is None else HALF_PLACE / (HALF_PLACE + passage.place)


def rescaled(span: Span, weight: float, was: float) -> Span:
    """A span weighed by its passage's new relevance instead of the one it was weighed by
    (never 0: RELEVANCE_FLOOR)."""
    return _scaled(span, weight / was)


def _scaled(span: Span, by: float, prior: float = 1.0) -> Span:
    """The ranking moves by the relevance to RELEVANCE_POWER, and by the prior; the
    confidence by the relevance itself, as the chance that the passage is about what is
    asked times the reader's that the answer is here."""
    return replace(
        span,
        probability=span.probability * by**RELEVANCE_POWER * prior,
        confidence=span.confidence * by,
    )
