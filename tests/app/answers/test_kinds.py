"""The kind of a thing a sentence names, for "what type of X?" questions."""

from __future__ import annotations

import pytest

from app.answers.evidence import values
from app.answers.kinds import named_kinds
from app.answers.question import AnswerType, read_question
from tests.app.answers.test_related import passages


@pytest.mark.parametrize(
    ("question", "text", "expected"),
    [
        (
            "What type of sprite did she play?",
            "It is about a water sprite who sings.",
            ["water sprite"],
        ),
        (
            "Ann Lee is a painter and what kind of activist?",
            "Ann Lee is a Welsh painter and political activist.",
            ["political activist"],
        ),
        # a verb-like word ends the modifiers, though next to the noun such a word modifies
        ("What sort of products?", "Elm Ltd provides IT products.", ["IT products"]),
        ("What kind of car is it?", "It is a sports car.", ["sports car"]),
        # a phrase the question holds, or a noun without modifiers, names no kind
        ("What kind of sports car is it?", "It is a sports car.", []),
        ("What type of lamp is this?", "The lamp is bright.", []),
    ],
)
def test_the_words_before_the_noun_name_its_kind(
    question: str, text: str, expected: list[str]
) -> None:
    noun = read_question(question).kind_of
    assert noun is not None
    assert [k[0] for k in named_kinds(text, noun, question.casefold())] == expected


def test_a_what_type_of_question_asks_for_a_kind_of_its_noun() -> None:
    question = read_question("What kind of magazines are Elm and Oak?")
    assert (question.answer_type, question.head, question.kind_of) == (
        AnswerType.ENTITY,
        "kind",
        "magazine",
    )
    assert read_question("What magazine is Elm?").kind_of is None


def test_a_named_kind_answers_before_the_names_around_it() -> None:
    question = read_question("What type of sprite did Ann Lee play in Rusalka?")
    (sentence,) = passages(
        {"Rusalka": "In Prague, Ann Lee sang Rusalka, a water sprite."}, places=("Prague",)
    )
    assert [v.text for v in values(sentence, question, AnswerType.ENTITY)][:1] == ["water sprite"]
