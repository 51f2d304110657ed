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
from ingest.analyzer import analyze

RELEVANCE_POWER = 2.0
RELEVANCE_FLOOR = 0.05  # a passage with none of the question's terms still counts a little


def relevance(question: str, passages: list[Passage]) -> list[float]:
    asked = set(analyze(question))
    held = [p.terms for p in passages]
    weight = {t: math.log(1 + (len(held) + 1) / (1 + sum(t in h for h in held))) for t in asked}
    total = sum(weight.values())
    if not total:
        return [1.0] * len(passages)
    shares = (sum(w for t, w in weight.items() if t in h) / total for h in held)
    return [max(share, RELEVANCE_FLOOR) for share in shares]


def weighed(spans: list[Span], weights: list[float]) -> list[Span]:
    """The spans weighed by their passages' relevance, most probable first."""
    scaled = [_scaled(s, weights[s.passage]) for s in spans]
    return sorted(scaled, key=lambda s: -s.probability)


def rescaled(span: Span, weight: float, was: float) -> Span:
    """A span weighed by its passage's new relevance instead of the one it was weighed by
    (never 0: RELEVANCE_FLOOR)."""
    return _scaled(span, weight / was)


def _scaled(span: Span, by: float) -> Span:
    """The ranking moves by the relevance to RELEVANCE_POWER; the confidence by the relevance
    itself, as the chance that the passage is about what is asked times the reader's that the
    answer is here."""
    return replace(
        span,
        probability=span.probability * by**RELEVANCE_POWER,
        confidence=span.confidence * by,
    )
