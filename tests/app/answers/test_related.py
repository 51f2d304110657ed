"""The person a side of a comparison names in the question's role."""

from __future__ import annotations

from uuid import uuid4

from app.answers.evidence import Evidence, gather
from app.answers.question import read_question
from app.answers.related import related_person
from app.answers.results import Source
from app.search.results import HitDocument, SearchHit
from ingest.extraction import Named

TEXT = "Red Lantern is a 1955 thriller film written by Ann Lee and directed by Ivo Marsh."
QUESTION = read_question("Which film has the director who was born first, Red Lantern or X?")


def evidence(text: str, people: list[str]) -> list[Evidence]:
    document = HitDocument(uuid4(), uuid4(), "Red Lantern", "red-lantern", "text/plain", {}, "")
    hit = SearchHit(uuid4(), 1.0, [], document, None, [], text, text, [], None)
    pool = gather([Source("SRC:0001", hit)])
    for found in pool:
        starts = [(name, found.text.find(name)) for name in people]
        found.entities_read([Named(n, "PERSON", s, s + len(n)) for n, s in starts if s >= 0])
    return pool


def test_the_question_names_the_role() -> None:
    assert QUESTION.comparison is not None and QUESTION.comparison.relation == "director"


def test_of_two_people_as_near_the_role_the_one_after_it_is_related() -> None:
    """ "written by Ann Lee and directed by Ivo Marsh": both stand one word from
    "directed"; the director is the one after it."""
    found = related_person(
        evidence(TEXT, ["Ann Lee", "Ivo Marsh"]), "director", QUESTION, frozenset()
    )
    assert found is not None and found[1].text == "Ivo Marsh"


def test_a_name_with_a_passage_of_its_own_is_found_without_the_entity_model() -> None:
    found = related_person(evidence(TEXT, []), "director", QUESTION, frozenset({"ivo marsh"}))
    assert found is not None and found[1].text == "Ivo Marsh"


def test_no_one_is_related_when_no_name_stands_near_the_role() -> None:
    pool = evidence("Red Lantern is a 1955 thriller film starring Ann Lee.", ["Ann Lee"])
    assert related_person(pool, "director", QUESTION, frozenset()) is None
