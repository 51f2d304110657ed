"""Values read in a sentence: a person's name with the territory of their title."""

from __future__ import annotations

import pytest

from app.answers.evidence import values
from app.answers.question import AnswerType, read_question
from ingest.extraction import Named
from tests.app.answers.test_related import passages


@pytest.mark.parametrize(
    ("text", "person", "expected"),
    [
        (
            "He was the son of Prince George, Duke of Kent, and Marina.",
            "Prince George",
            "Prince George, Duke of Kent",
        ),
        ("His mother was Eleanor of Arborea.", "Eleanor", "Eleanor of Arborea"),
        ("He was the son of Ivo Marsh, a painter of Leeds.", "Ivo Marsh", "Ivo Marsh"),
    ],
)
def test_a_person_s_name_holds_the_territory_of_their_title(
    text: str, person: str, expected: str
) -> None:
    (sentence,) = passages({"Page": text})
    start = text.index(person)
    sentence.entities_read([Named(person, "PERSON", start, start + len(person))])
    found = values(sentence, read_question("Who is his parent?"), AnswerType.PERSON)
    assert [v.text for v in found] == [expected]
