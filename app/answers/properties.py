"""Whether a named thing has the property a question names: "Are A and B both opera
composers?" (yes when each side's passage says so), "Who was also an actor, A or B?" (the
side whose passage says so).

The property is the question's content terms that are not the sides' own. A side has it to
the share of those terms one sentence about the side holds, word families counting
("composer of operas" holds "opera composers").
"""

from __future__ import annotations

from dataclasses import dataclass

from app.answers.evidence import Evidence, related_terms
from app.answers.question import Question
from ingest.analyzer import analyze

HOLDS_SHARE = 0.5  # of the property's terms a sentence must hold for the side to have it


@dataclass(frozen=True)
class Holding:
    evidence: Evidence
    share: float  # of the property's terms the sentence holds

    @property
    def holds(self) -> bool:
        return self.share >= HOLDS_SHARE


def property_terms(question: Question, sides: tuple[str, str]) -> frozenset[str]:
    named = {t for side in sides for t in analyze(side)}
    return frozenset(t for t in question.terms if t not in named)


def holding(about_side: list[Evidence], terms: frozenset[str]) -> Holding | None:
    """The sentence about a side that holds most of the property, best scored first."""
    if not about_side or not terms:
        return None
    best = max(about_side, key=lambda e: (len(related_terms(e.terms, terms)), e.score))
    return Holding(best, len(related_terms(best.terms, terms)) / len(terms))
