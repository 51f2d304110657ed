"""The people a question reaches through: the person a passage names in a role, and a
chain of them, passage by passage."""

from __future__ import annotations

from uuid import uuid4

import pytest

from app.answers.evidence import Evidence, gather
from app.answers.question import read_question
from app.answers.related import Pages, asked_of, related_person, through_roles
from app.answers.results import Source
from app.search.results import HitDocument, SearchHit
from ingest.extraction import Named

FILM = "Red Lantern is a 1955 thriller film written by Ann Lee and directed by Ivo Marsh."
COMPARED = read_question("Which film has the director who was born first, Red Lantern or X?")


def passages(
    texts: dict[str, str], people: tuple[str, ...] = (), places: tuple[str, ...] = ()
) -> list[Evidence]:
    """The sentences of one passage per title, with the given people and places read as
    the entity model would."""
    sources = [
        Source(f"SRC:{i + 1:04d}", _hit(t, text)) for i, (t, text) in enumerate(texts.items())
    ]
    pool = gather(sources)
    labelled = [(name, "PERSON") for name in people] + [(name, "GPE") for name in places]
    for found in pool:
        starts = [(name, label, found.text.find(name)) for name, label in labelled]
        found.entities_read([Named(n, lab, s, s + len(n)) for n, lab, s in starts if s >= 0])
    return pool


def _hit(title: str, text: str) -> SearchHit:
    document = HitDocument(uuid4(), uuid4(), title, title, "text/plain", {}, "")
    return SearchHit(uuid4(), 1.0, [], document, None, [], text, text, [], None)


def test_the_question_names_the_role() -> None:
    assert COMPARED.comparison is not None and COMPARED.comparison.relation == "director"


def test_of_two_people_as_near_the_role_the_one_after_it_is_related() -> None:
    """ "written by Ann Lee and directed by Ivo Marsh": both stand one word from
    "directed"; the director is the one after it."""
    pool = passages({"Red Lantern": FILM}, ("Ann Lee", "Ivo Marsh"))
    found = related_person(pool, "director", COMPARED, Pages.of(pool))
    assert found is not None and found.person.text == "Ivo Marsh"


def test_a_name_with_a_passage_of_its_own_is_found_without_the_entity_model() -> None:
    pool = passages({"Red Lantern": FILM, "Ivo Marsh (director)": "Ivo Marsh is a director."})
    pages = Pages.of(pool)
    found = related_person(pages.own("Red Lantern"), "director", COMPARED, pages)
    assert found is not None and found.person.text == "Ivo Marsh"


def test_no_one_is_related_when_no_name_stands_near_the_role() -> None:
    pool = passages({"Red Lantern": "Red Lantern is a 1955 film starring Ann Lee."}, ("Ann Lee",))
    assert related_person(pool, "director", COMPARED, Pages.of(pool)) is None


def test_a_mother_is_told_from_a_father_by_her_own_passage() -> None:
    """ "the son of A and B": A stands nearer, but A's passage says "he"."""
    pool = passages(
        {
            "Ivo Marsh": "Ivo Marsh was a director. He was the son of Per Marsh and Eva Lund.",
            "Per Marsh": "Per Marsh was a sailor. He was born in Hull.",
            "Eva Lund": "Eva Lund was a teacher. She was born in Leeds.",
        }
    )
    question = read_question("Where was the mother of Ivo Marsh born?")
    links = through_roles(question, Pages.of(pool))
    assert links is not None and [link.person.text for link in links] == ["Eva Lund"]


def test_without_a_passage_a_title_tells_a_man_from_a_woman() -> None:
    """ "the daughter of King Per Lund and Queen Eva Holm": neither has a passage; the
    nearer name is a king, so the mother is the queen."""
    pool = passages(
        {"Ida Lund": "Ida Lund was a princess, the daughter of King Per Lund and Queen Eva Holm."},
        ("Ida Lund", "Per Lund", "Eva Holm"),
    )
    mother = related_person(
        pool, "mother", read_question("Who is the mother of Ida Lund?"), Pages.of(pool)
    )
    assert mother is not None and mother.person.text == "Eva Holm"


_KIN = "Ivo Lund was the son of Per Lund. He was the father of King Tor Lund."
_CHILD_ONLY = "Ivo Lund was a king of Elmland. He was the father of King Tor Lund."


@pytest.mark.parametrize(
    ("text", "role", "expected"),
    [
        (_KIN, "father", "Per Lund"),
        (_KIN, "son", "Tor Lund"),
        (_CHILD_ONLY, "father", None),
        (_CHILD_ONLY, "son", "Tor Lund"),
    ],
)
def test_a_name_at_the_other_end_of_the_kinship_asked_is_not_the_one_asked(
    text: str, role: str, expected: str | None
) -> None:
    """ "He was the father of King Tor Lund" names Ivo's son, not his father; "the son of
    Per Lund" names his father. Both stand near the words of a father and of a son."""
    pool = passages({"Ivo Lund": text}, ("Ivo Lund", "Per Lund", "Tor Lund"))
    question = read_question(f"Who is the {role} of Ivo Lund?")
    found = related_person(pool, role, question, Pages.of(pool))
    assert (found.person.text if found else None) == expected


def test_a_chain_breaks_where_a_person_has_no_passage() -> None:
    pool = passages({"Red Lantern": FILM}, ("Ivo Marsh",))
    question = read_question("Where was the father of the director of film Red Lantern born?")
    assert through_roles(question, Pages.of(pool)) is None


def test_a_role_s_person_is_not_the_passage_s_own_subject() -> None:
    """ "Ivo Marsh married the actress Eva Lund": read by the entity model, both are people
    near "married"; the spouse is the one the passage is not about."""
    text = "Ivo Marsh was a director. In 1950 Ivo Marsh married the actress Eva Lund."
    pool = passages({"Ivo Marsh": text}, ("Ivo Marsh", "Eva Lund"))
    question = read_question("Who is the spouse of the director of film Red Lantern?")
    found = related_person(pool, "spouse", question, Pages.of(pool))
    assert found is not None and found.person.text == "Eva Lund"


def test_the_last_person_s_value_is_read_where_the_question_s_event_is_told() -> None:
    """ "the place of death": "was assassinated in Delft" tells it, though the sentence
    before names a place too and holds more of the question's words."""
    pool = passages(
        {
            "Ivo Marsh": "Ivo Marsh was a prince. His father was Per Marsh.",
            "Per Marsh": "Per Marsh became a prince of Orange in Holland. "
            "In 1584 he was assassinated by a rival in Delft.",
        },
        ("Per Marsh",),
        ("Holland", "Delft"),
    )
    question = read_question("Where was the place of death of Ivo Marsh's father?")
    found = asked_of("Per Marsh", question, Pages.of(pool))
    assert found is not None and found[1].text == "Delft"


def test_without_the_event_told_the_best_sentence_with_a_value_answers() -> None:
    pool = passages({"Per Marsh": "Per Marsh was a prince in Holland."}, places=("Holland",))
    question = read_question("Where was the place of death of Ivo Marsh's father?")
    found = asked_of("Per Marsh", question, Pages.of(pool))
    assert found is not None and found[1].text == "Holland"


def test_the_person_s_own_name_labelled_a_place_is_no_place_of_theirs() -> None:
    """The entity model may label a name a place where the sentence tells of the person
    ("Oswiu's forces"); asked where he died, his name is no answer, but a place within a
    name ("Arborea" of "Eleanor of Arborea") still is one."""
    pool = passages(
        {"Oswiu": "In 655 Oswiu defeated Penda. Oswiu died in Whitby in 670."},
        places=("Oswiu", "Whitby"),
    )
    question = read_question("Where was the place of death of Osthryth's father?")
    found = asked_of("Oswiu", question, Pages.of(pool))
    assert found is not None and found[1].text == "Whitby"
    pool = passages({"Eleanor of Arborea": "Eleanor of Arborea died in 1404."}, (), ("Arborea",))
    question = read_question("Where was the place of death of Marianus's mother?")
    found = asked_of("Eleanor of Arborea", question, Pages.of(pool))
    assert found is not None and found[1].text == "Arborea"


def test_a_person_named_again_by_the_last_name_is_the_one_with_the_passage() -> None:
    """ "written by Ivo Marsh and Ann Lee … directed by Marsh": the director is the Ivo
    Marsh of the passage, though "directed" stands far from his full name."""
    film = (
        "Red Lantern is a 1955 film written by Ivo Marsh and Ann Lee, shot in the spring"
        " in Leeds and released by a studio of London; it was directed by Marsh."
    )
    pool = passages({"Red Lantern": film, "Ivo Marsh": "Ivo Marsh was a director."})
    pages = Pages.of(pool)
    found = related_person(pages.own("Red Lantern"), "director", COMPARED, pages)
    assert found is not None and found.person.text == "Ivo Marsh"
