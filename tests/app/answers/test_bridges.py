"""Bridge hops on sentences written for the purpose, entities read as the model would."""

from __future__ import annotations

from app.answers.bridges import about, best_hop
from app.answers.question import read_question
from tests.app.answers.test_related import passages


def test_a_bridge_is_named_by_whole_words_only() -> None:
    """ "Don" is no name in "Don't Let Me Down", nor is Donna Lewis's page his."""
    pool = passages(
        {
            "Nashville Rebel": "The last track is a song produced by Don.",
            "Get Back": 'The B-side "Don\'t Let Me Down" was the last mono single of 1969.',
            "Donna Lewis": "Donna Lewis is a Welsh singer, born in 1973.",
        },
        people=("Don",),
    )
    question = read_question("In what year was the last track of Nashville Rebel sung?")
    assert best_hop(pool, question) is None
    assert not about(pool[2], "Don") and about(pool[2], "Donna Lewis")


def test_a_possessive_still_names_the_bridge() -> None:
    pool = passages(
        {
            "Red Lantern": "Red Lantern is a 1955 film directed by Ivo Marsh.",
            "Harbour Nights": "Ivo Marsh's last film, Harbour Nights, came out in 1979.",
        },
        people=("Ivo Marsh",),
    )
    hop = best_hop(pool, read_question("In what year did the director of Red Lantern last film?"))
    assert hop is not None and hop.value is not None and hop.value.text == "1979"
