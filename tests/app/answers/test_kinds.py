"""The kind of a thing a sentence names, for "what type of X?" questions."""

from __future__ import annotations

import pytest

from app.answers.evidence import values
from app.answers.kinds import named_kinds, set_beside
from app.answers.question import AnswerType, read_question
from ingest.extraction import Named
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


@pytest.mark.parametrize(
    ("text", "name", "beside"),
    [
        ("It was written by English musician Tom Hale.", "Tom Hale", True),
        ('She starred in the folk series "Hill Songs".', "Hill Songs", True),
        ('They spoke to a fanzine named "Skum".', "Skum", True),
        ("He played for the Danish clubs Odense and Vejle.", "Odense", True),
        # a name after another word, or after the noun used otherwise, is not set beside it
        ("The musician was born in Leeds.", "Leeds", False),
        ("It was written by Tom Hale, a musician.", "Tom Hale", False),
        ("The musicians' union met Tom Hale.", "Tom Hale", False),
    ],
)
def test_a_name_set_right_after_its_kind_is_named_as_that_kind(
    text: str, name: str, beside: bool
) -> None:
    noun = "club" if "clubs" in text else "fanzine" if "fanzine" in text else "musician"
    noun = "series" if "series" in text else noun
    assert set_beside(text, text.index(name), noun) is beside


@pytest.mark.parametrize(
    ("text", "noun", "beside"),
    [
        ("It lies in the county of Elmshire.", "county", True),
        ("He was born in the city of Bath.", "city", True),
        # a kind English does not name so, or a person's, says what the name is not
        ("Paris is the capital of France.", "capital", False),
        ("She was the director of Elmshire.", "director", False),
    ],
)
def test_a_place_set_after_its_kind_and_of_is_named_as_that_kind(
    text: str, noun: str, beside: bool
) -> None:
    name = text.rstrip(".").split()[-1]
    assert set_beside(text, text.index(name), noun, place=True) is beside
    assert not set_beside(text, text.index(name), noun)


def test_a_name_beside_the_noun_asked_answers_before_the_names_around_it() -> None:
    """Per Aasen stands nearer the question's words; Tom Hale is named as a musician."""
    question = read_question("Which musician recorded the album Blue Sky with Ann Lee?")
    text = (
        "Ann Lee recorded the album Blue Sky with Per Aasen, and the next year the musician"
        " Tom Hale joined them."
    )
    (sentence,) = passages({"Ann Lee": text}, people=("Ann Lee", "Per Aasen", "Tom Hale"))
    found = values(sentence, question, question.answer_type)
    assert [v.text for v in found] == ["Tom Hale", "Per Aasen"]


def test_a_quoted_title_is_read_beside_a_noun_that_asks_for_no_work() -> None:
    question = read_question("What was the name of the fanzine that interviewed Ann Lee?")
    assert question.head == "fanzine"
    (sentence,) = passages(
        {"Ann Lee": 'Ann Lee was interviewed by a fanzine named "Skum" in Leeds.'},
        people=("Ann Lee",),
        places=("Leeds",),
    )
    assert [v.text for v in values(sentence, question, question.answer_type)][:1] == ["Skum"]


def test_a_name_drops_the_quote_mark_the_entity_model_took_with_it() -> None:
    question = read_question("What novel is Ann Lee best known for?")
    text = 'Ann Lee is best known for "Blue Harbour" (1969).'
    (sentence,) = passages({"Ann Lee": text})
    start = text.index('"Blue')
    sentence.entities_read([Named('"Blue Harbour', "WORK_OF_ART", start, start + 13)])
    assert [v.text for v in values(sentence, question, question.answer_type)] == ["Blue Harbour"]


def test_a_name_set_before_the_noun_asked_answers_even_unlabelled() -> None:
    """ "the Downtown section" names a section, though the entity model labels nothing
    there; "the U.S. military" a military, before a maker named nearer the question's
    words. A number is no name ("the 17th-busiest airport"), nor a people's ("a Norwegian
    film")."""
    question = read_question("Oak Hall has offices in what section of Elmby?")
    text = "Oak Hall is a complex in the Downtown section of the city of Elmby."
    (sentence,) = passages({"Oak Hall": text})
    assert [v.text for v in values(sentence, question, question.answer_type)] == ["Downtown"]
    question = read_question("The M3 rifle was used by what military?")
    text = "The M3 rifle made by Browning was used by the U.S. military."
    (sentence,) = passages({"M3 rifle": text}, people=("Browning",), places=("U.S.",))
    assert values(sentence, question, question.answer_type)[0].text == "U.S."
    question = read_question("What airport is the busiest in Elmshire?")
    (sentence,) = passages({"Oak Field": "Oak Field is the 17th-busiest airport in Elmshire."})
    assert "17th-busiest" not in [v.text for v in values(sentence, question, AnswerType.PLACE)]
    question = read_question("Which film was shot in Elmby?")
    (sentence,) = passages({"Blue Door": "Blue Door is a Norwegian film shot in Elmby."})
    sentence.entities_read([Named("Norwegian", "NORP", 15, 24)])
    assert "Norwegian" not in [v.text for v in values(sentence, question, AnswerType.WORK)]
