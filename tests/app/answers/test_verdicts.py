"""Verdicts on values: a year when a year is asked for, and two countries written
differently."""

from __future__ import annotations

import pytest

from app.answers.question import AnswerType, read_question
from app.answers.verdicts import as_asked, days_between, same_kind


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
    ("a", "b", "same"),
    [
        ("Hamar, Norway", "Norwegian", True),  # a place's last part is its country
        ("St. Petersburg, Russia", "the Laptev Sea, Russia", True),
        ("Czech- American", "American", True),  # each part of a hyphenated nationality
        ("Swiss", "French", False),
        ("Rome, Italy", "Milan, Italy", True),
    ],
)
def test_two_countries_written_differently(a: str, b: str, same: bool) -> None:
    assert same_kind(a, b, AnswerType.NATIONALITY) is same


def test_two_places_are_compared_whole() -> None:
    """ "Born in the same place?": Rome and Milan are not one place, though one country."""
    assert not same_kind("Rome, Italy", "Milan, Italy", AnswerType.PLACE)


def test_the_days_between_the_two_ends_of_a_life() -> None:
    assert days_between(["4 May 1920", "2 June 1990"]) == 25596
    assert days_between(["1890", "1961"]) == 25932  # a year alone counts from its first day
    assert days_between(["4 May 1920"]) is None
