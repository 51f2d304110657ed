"""Functional relations: predicates that allow one value at a time.

A company has one headquarters and one CEO at a time; a person one spouse. When a newer
fact names another value, the older fact stops being valid when the newer one starts.
`per` names the side that holds one value: a company (object of "ceo of") has one CEO.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class FunctionalRelation:
    name: str
    predicates: frozenset[str]
    per: Literal["subject", "object"]


RELATIONS = (
    FunctionalRelation(
        "headquarters",
        frozenset(
            {
                "headquartered in",
                "based in",
                "headquarter in",
                "move headquarters to",
                "relocate headquarters to",
                "move headquarter to",
                "relocate headquarter to",
                "have headquarters in",
            }
        ),
        "subject",
    ),
    FunctionalRelation(
        "chief executive",
        frozenset({"ceo of", "chief executive of", "chief executive officer of"}),
        "object",
    ),
    FunctionalRelation(
        "chair", frozenset({"chairman of", "chair of", "chairwoman of", "chairperson of"}), "object"
    ),
    FunctionalRelation("president", frozenset({"president of"}), "object"),
    FunctionalRelation(
        "spouse",
        frozenset({"marry", "married to", "wife of", "husband of", "spouse of"}),
        "subject",
    ),
    FunctionalRelation("place of death", frozenset({"die in"}), "subject"),
)
_BY_PREDICATE = {p: r for r in RELATIONS for p in r.predicates}


def relation_of(predicate: str) -> FunctionalRelation | None:
    return _BY_PREDICATE.get(predicate)


@dataclass(frozen=True)
class ChainFact:
    id: str
    other: str  # the side that may change: the headquarters' city, the company's CEO
    valid_from: str | None


@dataclass(frozen=True)
class Closure:
    valid_to: str | None
    superseded_by: str | None


def close_chain(facts: list[ChainFact]) -> dict[str, Closure]:
    """Each dated fact ends where the next later fact with another value starts.

    Undated facts cannot be placed in time and stay open; two values starting on the same
    date do not close each other.
    """
    dated = sorted((f for f in facts if f.valid_from), key=lambda f: (f.valid_from, f.id))
    closures = {f.id: Closure(None, None) for f in facts}
    for index, fact in enumerate(dated):
        successor = next(
            (
                later
                for later in dated[index + 1 :]
                if later.other != fact.other and (later.valid_from or "") > (fact.valid_from or "")
            ),
            None,
        )
        if successor is not None:
            closures[fact.id] = Closure(successor.valid_from, successor.id)
    return closures
