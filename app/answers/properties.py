"""Whether a named thing has the property a question names: "Are A and B both opera
composers?" (yes when each side's passage says so), "Who was also an actor, A or B?" (the
side whose passage says so).

The property is the question's content terms that are not the sides' own. A side has it to
the share of those terms one sentence about the side holds, word families counting
("composer of operas" holds "opera composers"). A people is exclusive: asked "both American
documentaries?", a side whose sentence calls it Australian and names no American lacks the
property, though it holds "documentary".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.answers.evidence import Evidence, related_terms
from app.answers.question import Question
from app.answers.verdicts import COUNTRY_PREFIX
from ingest.analyzer import analyze

HOLDS_SHARE = 0.5  # of the property's terms a sentence must hold for the side to have it
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_ATTRIBUTIVE = re.compile(r" (?!language\b)[a-z]")  # a noun follows, in lower case


@dataclass(frozen=True)
class Holding:
    evidence: Evidence
    share: float  # of the property's terms the sentence holds
    settled: bool = False  # it names another people than the one asked: the side lacks it

    @property
    def holds(self) -> bool:
        return self.share >= HOLDS_SHARE


@dataclass(frozen=True)
class Property:
    terms: frozenset[str]  # the question's content terms, the sides' own left out
    peoples: frozenset[str]  # its words the passages name as a people: "american"


def property_of(question: Question, sides: tuple[str, str], pool: list[Evidence]) -> Property:
    """The property asked of the sides; a word is a people's when some sentence of the pool
    names it so, not by a list of nationalities."""
    named = {t for side in sides for t in analyze(side)}
    terms = frozenset(t for t in question.terms if t not in named)
    peoples = {people for e in pool for people in _peoples(e)}
    asked = question.text
    for side in sides:
        asked = re.sub(re.escape(side), " ", asked, flags=re.I)
    words = {m.group().casefold() for m in _WORD.finditer(asked) if _describes(asked, m.end())}
    return Property(terms, frozenset(words & peoples))


def _describes(text: str, end: int) -> bool:
    """Whether the word ending at `end` describes: before a noun ("American documentaries")
    or last ("both Norwegian?"), not a name ("the band Soulfly, …")."""
    return _ATTRIBUTIVE.match(text, end) is not None or not text[end:].strip(" ?")


def holding(about_side: list[Evidence], wanted: Property) -> Holding | None:
    """The sentence about a side that holds most of the property, best scored first; none
    of it when that sentence names only other peoples than the one asked."""
    terms = wanted.terms
    if not about_side or not terms:
        return None
    best = max(about_side, key=lambda e: (len(related_terms(e.terms, terms)), e.score))
    if _another_people(best, wanted.peoples):
        return Holding(best, 0.0, settled=True)
    return Holding(best, len(related_terms(best.terms, terms)) / len(terms))


def _another_people(evidence: Evidence, asked: frozenset[str]) -> bool:
    """Whether the sentence names a people and none of those asked ("Argentine" is the
    "Argentinian" asked: a people's names share their first letters)."""
    named = _peoples(evidence)
    if not asked or not named:
        return False
    return not any(n[:COUNTRY_PREFIX] == a[:COUNTRY_PREFIX] for n in named for a in asked)


def _peoples(evidence: Evidence) -> list[str]:
    """The peoples a sentence names (spaCy's NORP), and the languages it uses as an
    adjective, which are peoples too: "an English director" (spaCy reads a LANGUAGE), not
    "filmed in English" nor "an English-language film"."""
    text = evidence.text
    return [
        n.text.casefold()
        for n in evidence.named
        if n.label == "NORP" or (n.label == "LANGUAGE" and _ATTRIBUTIVE.match(text, n.end))
    ]
