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


def test_a_name_that_opens_with_a_page_s_title_is_that_page_s_subject() -> None:
    """ "WCSH 6" is the station of the page "WCSH"; "Portland, Maine" is no page "Maine"."""
    pool = passages(
        {
            "Ann Lee": "Ann Lee is a news anchor with WCSH 6 in Portland, Maine.",
            "WCSH": "It broadcasts on UHF channel 44 from a transmitter in Sebago.",
            "Maine": "Maine is the northernmost state in New England.",
        },
        places=("WCSH 6", "Portland, Maine", "Sebago"),
    )
    assert about(pool[1], "WCSH 6") and not about(pool[2], "Portland, Maine")
    hop = best_hop(pool, read_question("On what UHF channel is the station Ann Lee is on?"))
    assert hop is not None and hop.value is not None and hop.value.text == "44"
