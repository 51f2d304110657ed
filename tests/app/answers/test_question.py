"""Reading what a question asks for, in English, Hebrew and Japanese."""

from __future__ import annotations

import pytest

from app.answers.question import AnswerType, Prefer, read_question


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Who directed the film?", AnswerType.PERSON),
        ("When did she die?", AnswerType.DATE),
        ("Where was he born?", AnswerType.PLACE),
        ("How many days of leave are there?", AnswerType.NUMBER),
        ("Is the policy in force?", AnswerType.YES_NO),
        ("What does the policy cover?", AnswerType.ANY),
        ("מי היה מפקד האירוע?", AnswerType.PERSON),
        ("כמה ימי חופשה יש?", AnswerType.NUMBER),
        ("有給休暇は何日ですか？", AnswerType.NUMBER),
        ("担当者は誰ですか？", AnswerType.PERSON),
    ],
)
def test_the_answer_type(text: str, expected: AnswerType) -> None:
    assert read_question(text).answer_type is expected


def test_a_comparison_has_two_sides_and_a_direction() -> None:
    question = read_question("Which film came out first, Blind Shaft or The Mask?")
    assert question.comparison is not None
    assert question.comparison.sides == ("Blind Shaft", "The Mask")
    assert question.comparison.prefer is Prefer.EARLIER
    assert question.comparison.value is AnswerType.DATE
    larger = read_question("Which city is larger, Haifa or Eilat?").comparison
    assert larger is not None and larger.value is AnswerType.NUMBER


def test_content_terms_leave_question_words_out() -> None:
    question = read_question("How many days of annual leave do staff get?")
    assert "day" in question.terms and "how" not in question.terms
    assert question.unit == "day"
    assert read_question("有給休暇は何日ですか？").unit == "日"


def test_a_same_question_is_a_yes_or_no_comparison() -> None:
    question = read_question("Were Scott Derrickson and Ed Wood of the same nationality?")
    assert question.comparison is not None
    assert question.comparison.sides == ("Scott Derrickson", "Ed Wood")
    assert question.comparison.prefer is Prefer.SAME
    assert question.comparison.value is AnswerType.NATIONALITY
    placed = read_question(
        "Are both movies, Naked Tango and Algiers (Film), from the same country?"
    )
    assert placed.comparison is not None and placed.comparison.sides == (
        "Naked Tango",
        "Algiers (Film)",
    )
