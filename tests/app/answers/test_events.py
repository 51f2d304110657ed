"""Life events and measures named in different words: the question's and the passage's."""

from __future__ import annotations

from app.answers.events import family, with_families
from app.answers.question import read_question
from ingest.analyzer import analyze


def test_the_words_of_a_death_read_as_one_event() -> None:
    assert {family(t) for t in analyze("died death assassinated executed")} == {"death"}


def test_a_term_of_no_event_stays_itself() -> None:
    assert family("director") == "director"


def test_a_sentence_keeps_its_own_terms_beside_the_event() -> None:
    assert with_families(analyze("he was born in Hull")) >= {"born", "birth", "hull"}


def test_the_question_asks_for_the_event_not_its_word() -> None:
    assert "death" in read_question("Where did Ivo Marsh die?").terms
    assert "birth" in read_question("Where was Ivo Marsh born?").terms


def test_a_height_asked_is_the_elevation_a_passage_gives() -> None:
    """ "Which mountain is higher?" is answered by "an elevation of 7295 m"."""
    assert "height" in read_question("Which mountain is higher, Elm Peak or Oak Peak?").terms
    assert "height" in with_families(analyze("Its summit has an elevation of 7295 m."))
