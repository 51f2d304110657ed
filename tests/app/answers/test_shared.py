"""What two named things have in common, read from what their opening sentences define
them as."""

from __future__ import annotations

import pytest

from app.answers.question import read_question
from app.answers.shared import (
    asks_several,
    common_class,
    defines_as_kind,
    definition_items,
    named_class,
)


@pytest.mark.parametrize(
    ("opening", "expected"),
    [
        (
            "Aram Avakian (1926 – 1987) was an American film editor and director of films.",
            [["film", "editor"], ["director"]],
        ),
        (
            "Cistus is a genus of flowering plants in the rockrose family.",
            [["flowering", "plants"]],
        ),
        (
            "Revolver is a bi-monthly rock and heavy metal magazine published by NewBay Media.",
            [["bi-monthly", "rock"], ["heavy", "metal", "magazine"]],
        ),
        (
            "Gilbert Yvel is a retired Dutch mixed martial artist.",
            [["retired", "mixed", "martial", "artist"]],
        ),
        ("Bitter Jester is a documentary starring Maija DiGiorgio.", [["documentary"]]),
        ("Astro Boy is a 2009 superhero film loosely based on the manga.", [["superhero", "film"]]),
        ("It opened in 1952.", []),
        (
            "Don Ely (1942 – 2008) was an American character actor best-known for playing a"
            " general.",
            [["character", "actor"]],
        ),
        # an irregular participle ends it as an -ed one does
        (
            "HMS Caldera was one of six Caldera-class aircraft carriers built for the Royal Navy.",
            [["six", "aircraft", "carriers"]],
        ),
        # what the subject is regarded as defines it too
        (
            "Ivo Marsh is widely regarded as a major Irish writer of his time.",
            [["major", "writer"]],
        ),
    ],
)
def test_a_definition_is_the_noun_phrases_after_the_copula(
    opening: str, expected: list[list[str]]
) -> None:
    """Capitalised words, numbers and articles are no part of a class; a preposition, a
    relative clause or a participle after the noun ends it, and "a genus of" introduces
    it."""
    assert definition_items(opening) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (
            "Chris Menges is an English cinematographer and film director.",
            "Aram Avakian was an American film editor and director.",
            "director",
        ),
        (
            "Peter Curtis is a former tennis player from England.",
            "Scott Draper is a former professional tennis player who won a title.",
            "former tennis player",
        ),
        (
            "Bitter Jester is a documentary starring Maija DiGiorgio.",
            "Sicko is a 2007 American documentary film made by Michael Moore.",
            "documentary",
        ),
        (
            "H. L. Mencken was an American journalist, essayist, satirist and critic.",
            "Albert Camus was a French philosopher, author, and journalist.",
            "journalist",
        ),
    ],
)
def test_the_common_class_is_the_noun_both_definitions_share(a: str, b: str, expected: str) -> None:
    assert common_class(a, b) == expected


def test_no_class_when_the_nouns_differ() -> None:
    """ "film director" and "film editor" share a word, not a noun."""
    assert common_class("Ann Lee is a film director.", "Bo Lund is a film editor.") is None


@pytest.mark.parametrize(
    ("opening", "head", "expected"),
    [
        ("Kansas Song is a fight song of the University of Kansas.", "song", True),
        ("Parkway Centre is a major regional shopping centre in Leeds.", "centres", True),
        # the thing after "of" or "by" is another's, not what the subject is
        ("Nobody's Hero is a song by the Canadian rock band Rush.", "band", False),
        ("Farrukhzad Khosrow V was a king of the Sasanian Empire.", "empire", False),
    ],
)
def test_an_opening_defines_its_subject_as_a_kind_by_its_own_noun_phrases(
    opening: str, head: str, expected: bool
) -> None:
    assert defines_as_kind(opening, head) is expected


def test_a_class_one_defines_and_the_other_names_in_those_words_is_shared() -> None:
    """ "Outrage!" opens with no definition of its own, but names itself a board game."""
    a = "Camel Up is a board game for two to eight players."
    b = 'Outrage! , "the official Tower of London board game", was first created in 1992.'
    assert common_class(a, b) is None
    assert named_class(a, b) == "board game" and named_class(b, a) is None
    assert named_class("Ann Lee is an actor.", "Bo Lund worked with an actor.") is None


def test_asked_for_several_classes_every_class_both_share_is_listed() -> None:
    a = "James Hetfield is an American musician, singer and songwriter."
    b = "Bob Marley was a Jamaican singer, songwriter and musician."
    assert common_class(a, b) == "musician"
    assert common_class(a, b, several=True) == "musician, singer and songwriter"


@pytest.mark.parametrize(
    ("query", "several"),
    [
        ("What occupations do Ann Lee and Bo Lund have in common?", True),
        ("What are both Ann Lee and Bo Lund?", True),
        ("Ann Lee and Bo Lund are both what?", True),
        ("What occupation do Ann Lee and Bo Lund share?", False),
        ("What class of work do Ann Lee and Bo Lund share?", False),
    ],
)
def test_a_plural_kind_or_what_both_are_asks_for_several(query: str, several: bool) -> None:
    assert asks_several(read_question(query)) is several
