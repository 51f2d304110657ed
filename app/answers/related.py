"""The person a side of a comparison names in the role the question asks about: "Which
film has the director who was born first, A or B?" compares the people A's and B's
passages name as director ("… directed by Maren Olsvik"), each read in their own passage.

A name with a passage of its own among the retrieved ones is the surest link: it can be
followed, and it does not depend on the entity model reading it as a person.
"""

from __future__ import annotations

from collections.abc import Callable

from app.answers.evidence import Evidence, Value, nearness, related_terms, values
from app.answers.question import AnswerType, Question
from ingest.analyzer import analyze


def related_person(
    about_side: list[Evidence], relation: str, question: Question, pages: frozenset[str]
) -> tuple[Evidence, Value] | None:
    """The first sentence about the side that names someone next to a word of the role
    ("directed by", "the director"), and that someone: one whose passage was retrieved
    (`pages`: their names, case folded) before any other person the entity model found;
    the name nearest the word, of two as near the one after it ("written by A and directed
    by B")."""
    role = frozenset(analyze(relation))
    asked = question.text.casefold()
    named: list[Callable[[Evidence], list[Value]]] = [
        lambda e: _paged(e, frozenset(p for p in pages if p not in asked)),
        lambda e: values(e, question, AnswerType.PERSON),
    ]
    for candidates in named:
        for evidence in about_side:
            near = [v for v in candidates(evidence) if nearness(evidence, v, role) > 0]
            if near:
                return evidence, max(near, key=lambda v: _closeness(evidence, v, role))
    return None


def _paged(evidence: Evidence, pages: frozenset[str]) -> list[Value]:
    text = evidence.text.casefold()
    found = ((text.find(page), page) for page in pages)
    return [Value(evidence.text[i : i + len(p)], i, i + len(p)) for i, p in found if i >= 0]


def _closeness(evidence: Evidence, person: Value, role: frozenset[str]) -> tuple[float, bool]:
    before = frozenset(analyze(evidence.text[: person.start]))
    return nearness(evidence, person, role), bool(related_terms(before, role))
