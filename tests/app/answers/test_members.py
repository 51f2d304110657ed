"""A group's size, read where a passage gives no number of members."""

from __future__ import annotations

import pytest

from app.answers.evidence import count_of, values
from app.answers.members import listed, sizes
from app.answers.question import AnswerType, read_question
from ingest.extraction import Named
from tests.app.answers.test_related import passages

QUESTION = read_question("Which band has more members, Elm Street or Oak Tree?")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Elm Street are an English rock duo.", ["duo"]),
        ("Elm Street is a three-piece band from Leeds.", ["three"]),
        ("Elm Street are an English four-person group.", ["four"]),
        ("Elm Street played at the Oak Tree festival.", []),
    ],
)
def test_a_word_for_a_group_s_size(text: str, expected: list[str]) -> None:
    assert [size[0] for size in sizes(text)] == expected


def test_people_count_only_after_the_words_that_introduce_them_as_members() -> None:
    text = "Produced by Ann Hale, Elm Street consists of Bo Ray, Cy Dunn and Di Moss."
    named = [
        Named(n, "PERSON", text.index(n), text.index(n) + len(n))
        for n in ("Ann Hale", "Bo Ray", "Cy Dunn", "Di Moss")
    ]
    assert listed(text, named) == 3
    assert listed("Elm Street toured with Bo Ray and Cy Dunn.", named) is None


def test_a_band_s_size_is_its_number_of_members_its_size_word_or_its_listed_people() -> None:
    numbered, sized, named = passages(
        {
            "Elm Street": "Elm Street is a band of three members.",
            "Oak Tree": "Oak Tree are a rock quartet.",
            "Ash Lane": "Ash Lane was formed in 2004 by Bo Ray and Cy Dunn, later joined by"
            " Di Moss.",
        },
        people=("Bo Ray", "Cy Dunn", "Di Moss"),
    )
    found = [values(e, QUESTION, AnswerType.NUMBER) for e in (numbered, sized, named)]
    assert [count_of(v[0].text) for v in found] == [3.0, 4.0, 3.0]


def test_a_sentence_naming_people_in_another_way_gives_no_size() -> None:
    (sentence,) = passages({"Elm Street": "Elm Street toured with Bo Ray."}, people=("Bo Ray",))
    assert values(sentence, QUESTION, AnswerType.NUMBER) == []


def test_people_are_no_count_of_another_unit() -> None:
    """Only a comparison of members counts the people a sentence lists."""
    question = read_question("Which band has released more albums, Elm Street or Oak Tree?")
    (sentence,) = passages(
        {"Elm Street": "Elm Street consists of Bo Ray and Cy Dunn."}, people=("Bo Ray", "Cy Dunn")
    )
    assert values(sentence, question, AnswerType.NUMBER) == []
