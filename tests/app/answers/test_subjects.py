"""What a passage's opening sentence says its subject is."""

from __future__ import annotations

from app.answers.subjects import defines_as, kinds


def test_the_kind_is_read_after_the_copula_up_to_a_relative_clause() -> None:
    opening = "Leo Varadkar (born 1979) is an Irish politician who has served as Taoiseach."
    assert defines_as(opening, "politician")
    assert not defines_as(opening, "Taoiseach")  # in the relative clause, not the kind
    assert defines_as("Charmed is an American television series.", "series")
    assert defines_as("Odense Boldklub is a Danish football club based in Odense.", "club")


def test_a_hyphenated_modifier_names_no_kind() -> None:
    assert not defines_as("Urvasi Urvasi is a Tamil-language song.", "language")
    assert defines_as("Urvasi Urvasi is a Tamil-language song.", "song")


def test_a_sentence_without_a_copula_defines_nothing() -> None:
    assert kinds("The team played its home games at the arena.") == frozenset()
    assert not defines_as("Directed by Maren Olsvik.", "director")


def test_where_the_subject_is_names_no_kind() -> None:
    opening = "Elmwood is a census-designated place and community in Fairfax County, Virginia."
    assert defines_as(opening, "community")
    assert not defines_as(opening, "county")
