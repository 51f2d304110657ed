"""How long a sentence says a thing lasted."""

from __future__ import annotations

import pytest

from app.answers.durations import lasted_days


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("The siege was fought from 19 September to 16 December 1944 near Aachen.", 88),
        ("A battle lasting from August 4 to September 18, 1950.", 45),
        ("It was a telescope operational from May 1983 until April 1986.", 1_066),
        ("The band was active between 1980 and 2009.", 10_593),
        ("It was set for 3 years, but in the end it lasted almost 18 years.", 6_570),
        ("The strike lasted three weeks.", 21),
    ],
)
def test_a_span_of_dates_or_a_stated_length_is_how_long_it_lasted(text: str, days: int) -> None:
    assert lasted_days(text) == days


@pytest.mark.parametrize(
    "text",
    [
        "The mission was first proposed in 1964 and launched on January 26, 1978.",
        "He moved from Leeds to York and wrote 300 papers.",
        "It ran from 1990 to 1985 in the records.",
    ],
)
def test_dates_named_apart_or_backwards_are_no_span(text: str) -> None:
    assert lasted_days(text) is None
