"""Comparisons: the sides a question sets side by side, and how two read values compare."""

from __future__ import annotations

from app.answers.extractive.comparison import (
    Order,
    comparison_of,
    first_wins,
    number_of,
    same_value,
    value_of,
    within,
    yes_or_no,
)


def test_the_sides_are_the_documents_subjects_the_question_names() -> None:
    question = "Which bridge opened first, Kettle Span or the Orrin Viaduct?"
    found = comparison_of(question, ["Orrin Viaduct", "Kettle Span", "Harbour"])
    assert found is not None
    assert [s.name for s in found.sides] == ["Kettle Span", "Orrin Viaduct"]
    assert found.order is Order.EARLIER and not found.polar


def test_two_phrases_an_or_joins_at_the_end_are_the_sides_when_no_title_matches() -> None:
    found = comparison_of("Which happened later, the flood or the fire?", [])
    assert found is not None
    assert [s.name for s in found.sides] == ["the flood", "the fire"]
    assert found.order is Order.LATER


def test_a_question_opening_with_an_auxiliary_is_answered_yes_or_no() -> None:
    found = comparison_of(
        "Are Kettle Span and Orrin Viaduct in the same county?", ["Kettle Span", "Orrin Viaduct"]
    )
    assert found is not None and found.polar and found.order is None


def test_an_auxiliary_before_two_sides_an_or_joins_asks_which_not_whether() -> None:
    found = comparison_of(
        "Is Kettle Span or Orrin Viaduct nearer the sea?", ["Kettle Span", "Orrin Viaduct"]
    )
    assert found is not None and not found.polar and not found.shared
    assert found.answered_by("the Orrin Viaduct") and not found.answered_by("the sea")


def test_with_no_verdict_a_yes_no_question_is_answered_by_no_span_and_a_shared_one_by_any() -> None:
    sides = ["Kettle Span", "Orrin Viaduct"]
    polar = comparison_of("Are Kettle Span and Orrin Viaduct in the same county?", sides)
    assert polar is not None and not polar.answered_by("Kettle Span")
    shared = comparison_of("What do Kettle Span and Orrin Viaduct have in common?", sides)
    assert shared is not None and shared.answered_by("granite")


def test_two_subjects_named_without_a_choice_or_a_yes_no_are_no_comparison() -> None:
    assert (
        comparison_of("Who built Kettle Span near Orrin Viaduct?", ["Kettle Span", "Orrin Viaduct"])
        is None
    )


def test_two_subjects_an_and_joins_in_a_wh_question_ask_for_what_both_hold() -> None:
    question = "What trade do Kettle Span and Orrin Viaduct have in common?"
    found = comparison_of(question, ["Kettle Span", "Orrin Viaduct"])
    assert found is not None and found.shared
    assert not found.polar and found.order is None
    assert (
        found.question_for(question, found.sides[1])
        == "What trade do Orrin Viaduct have in common?"
    )
    assert (
        comparison_of(
            "Which opened first, Kettle Span and Orrin Viaduct?", ["Kettle Span", "Orrin Viaduct"]
        )
        is None
    )


def test_the_question_asked_of_a_side_names_it_alone_and_asks_for_the_kind_compared() -> None:
    question = "Which opened first, Kettle Span or Orrin Viaduct?"
    found = comparison_of(question, ["Kettle Span", "Orrin Viaduct"])
    assert found is not None
    assert found.question_for(question, found.sides[1]) == "When opened first, Orrin Viaduct?"
    question = "Who has more members, Kettle Span or Orrin Viaduct?"
    found = comparison_of(question, ["Kettle Span", "Orrin Viaduct"])
    assert found is not None
    assert found.question_for(question, found.sides[0]) == "How many has more members, Kettle Span?"
    question = "Are Kettle Span and Orrin Viaduct in one county?"
    found = comparison_of(question, ["Kettle Span", "Orrin Viaduct"])
    assert found is not None
    assert found.question_for(question, found.sides[0]) == "Are Kettle Span in one county?"


def test_dates_compare_by_day_and_numbers_by_size() -> None:
    earlier, later = value_of("3 March 1902", Order.EARLIER), value_of("1902", Order.EARLIER)
    assert earlier is not None and later is not None
    assert first_wins(Order.LATER, (earlier, later))  # a year alone counts from its start
    assert value_of("no date here", Order.EARLIER) is None
    assert number_of("1,250 seats") == 1250.0 and number_of("2.5 million people") == 2.5e6
    assert first_wins(Order.MORE, (12.0, 3.0)) and first_wins(Order.LESS, (3.0, 12.0))


def test_values_agree_when_the_shorter_one_s_words_are_the_other_s() -> None:
    assert same_value("American", "an American")
    assert not same_value("French", "German")


def test_a_value_is_within_another_when_every_word_of_the_shorter_is_the_longer_s() -> None:
    assert within("director", "film director") and within("Film Director", "director")
    assert not within("film director", "film editor")
    assert not within("", "director")


def test_a_question_opening_with_an_auxiliary_asks_yes_or_no_unless_it_offers_an_or() -> None:
    assert yes_or_no("Was Kettle Span built by convicts?")
    assert not yes_or_no("Was Kettle Span built in stone or in iron?")
    assert not yes_or_no("Who built Kettle Span?")
