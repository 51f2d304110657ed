"""Verdicts on values: a year when a year is asked for, and two countries written
differently."""

from __future__ import annotations

import pytest

from app.answers.evidence import Value
from app.answers.question import AnswerType, read_question
from app.answers.verdicts import (
    as_asked,
    days_between,
    middle_name,
    parsed,
    same_kind,
    within_brackets,
)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("In which year was Maren Olsvik born?", "1920"),
        ("What year did the film open?", "1920"),
        ("When was Maren Olsvik born?", "4 May 1920"),
    ],
)
def test_a_year_is_the_answer_when_a_year_is_asked_for(query: str, expected: str) -> None:
    assert as_asked("4 May 1920", read_question(query)) == expected


@pytest.mark.parametrize(
    ("value", "query", "expected"),
    [
        ("44 victories", "The pilot had how many victories?", "44"),
        ("8,515 at", "What was the population of the town in 2000?", "8,515"),
        ("250 million", "How many copies of the book sold?", "250 million"),
        ("8 km", "How long is the bridge?", "8 km"),
        ("7 miles", "How far from the town is the studio?", "7 miles"),
        ("3 hours", "How long, in hours, did the storm last?", "3"),
        ("25日", "有給休暇は何日ですか？", "25日"),
    ],
)
def test_a_count_is_the_number_with_its_magnitude_or_an_unnamed_unit(
    value: str, query: str, expected: str
) -> None:
    """The word read after a number is dropped when the question names it or it is no
    unit; a magnitude stays, and so does the unit of a measure the question leaves open."""
    assert as_asked(value, read_question(query)) == expected


def test_a_name_is_given_without_its_possessive() -> None:
    asked = read_question("Under which governor did Alfred Balk serve?")
    assert as_asked("Nelson Rockefeller's", asked) == "Nelson Rockefeller"
    assert as_asked("Katy Perry’s", asked) == "Katy Perry"
    assert as_asked("Dennis Rodgers", asked) == "Dennis Rodgers"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Oranjekoorts (Orange fever", "Oranjekoorts"),
        ('"The Magical Legend of the Leprechauns', "The Magical Legend of the Leprechauns"),
        ('Checo" Pérez', "Checo Pérez"),
        ('Kimberly "Kimmy" Schmidt', 'Kimberly "Kimmy" Schmidt'),
        ("Reynolds v. Sims (1964)", "Reynolds v. Sims (1964)"),
    ],
)
def test_a_name_is_given_without_a_mark_cut_from_its_pair(value: str, expected: str) -> None:
    """The entity model's span may cut a bracket or a quotation in two; the short answer
    does not show the half it kept."""
    assert as_asked(value, read_question("Which role did she play?")) == expected


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Hamar, Norway", "Norwegian", True),  # a place's last part is its country
        ("St. Petersburg, Russia", "the Laptev Sea, Russia", True),
        ("Czech- American", "American", True),  # each part of a hyphenated nationality
        ("Swiss", "French", False),
        ("Rome, Italy", "Milan, Italy", True),
        ("American", "the U.S.", True),  # a demonym and an abbreviation of one country
        ("Cuban American", "American", True),  # two nationalities, one of them shared
        ("British", "Irish", False),
    ],
)
def test_two_countries_written_differently(a: str, b: str, same: bool) -> None:
    assert same_kind(a, b, AnswerType.NATIONALITY) is same


def test_a_value_naming_no_country_stands_for_its_sentence_s_countries() -> None:
    """ "Alcamari (…) is a mountain in the Bolivian Andes": the value read is the mountain's
    other spelling; the sentence's other values say where it is."""
    around = (["Alcamari", "the Bolivian Andes"], ["the Bolivian Andes"])
    assert same_kind("Alcamari", "the Bolivian Andes", AnswerType.NATIONALITY, around)
    assert not same_kind("Alcamari", "Peru", AnswerType.NATIONALITY, (around[0], ["Peru"]))


def test_two_places_are_compared_whole() -> None:
    """ "Born in the same place?": Rome and Milan are not one place, though one country."""
    assert not same_kind("Rome, Italy", "Milan, Italy", AnswerType.PLACE)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Brad Silberling", "Brad Pitt", False),  # five letters in common are no one person
        ("Brad Silberling", "Brad Silberling", True),
        ("Cucurbitaceae", "the family Cucurbitaceae", True),
    ],
)
def test_two_names_are_the_same_when_one_holds_the_other(a: str, b: str, same: bool) -> None:
    assert same_kind(a, b, AnswerType.PERSON) is same


def test_the_days_between_the_two_ends_of_a_life() -> None:
    assert days_between(["4 May 1920", "2 June 1990"]) == 25596
    assert days_between(["1890", "1961"]) == 25932  # a year alone counts from its first day
    assert days_between(["4 May 1920"]) is None


def test_a_life_s_ends_are_the_dates_in_its_brackets() -> None:
    """ "(30 August 1650 – 11 June 1724) … beatified in 1765": the beatification is no end
    of the life; without two dates in brackets, every date counts."""
    text = "Ludovico Sabbatini (30 August 1650 – 11 June 1724) was beatified in 1765."
    found = [
        Value(d, text.find(d), text.find(d) + len(d))
        for d in ("30 August 1650", "11 June 1724", "1765")
    ]
    assert [v.text for v in within_brackets(text, found)] == ["30 August 1650", "11 June 1724"]
    alone = "He was born in 1650 and died in 1724."
    dates = [Value(d, alone.find(d), alone.find(d) + 4) for d in ("1650", "1724")]
    assert within_brackets(alone, dates) == dates


def test_a_number_word_is_its_number() -> None:
    assert parsed(Value("three species", 0, 13), AnswerType.NUMBER) == 3.0
    assert parsed(Value("Twelve acts", 0, 11), AnswerType.NUMBER) == 12.0
    assert parsed(Value("1,200 seats", 0, 11), AnswerType.NUMBER) == 1200.0
    assert parsed(Value("many acts", 0, 9), AnswerType.NUMBER) is None


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("Sela Ann Ward (born July 11, 1956) is an American actress.", "Ann Ward", "Ann"),
        ("Peter Andreas Thiel (born 1967) is an entrepreneur.", "Peter Andreas Thiel", "Andreas"),
        ("Sela Ward is an American actress.", "Sela Ward", None),
    ],
)
def test_a_middle_name_asked_for_is_the_words_between_the_first_and_the_last(
    text: str, name: str, expected: str | None
) -> None:
    question = read_question("What is the middle name of the actress who plays Bobbi?")
    at = text.index(name)
    assert middle_name(text, Value(name, at, at + len(name)), question) == expected
    plain = read_question("Who plays Bobbi?")
    assert middle_name(text, Value(name, at, at + len(name)), plain) is None
