"""Whether each side has the property a question names: its terms, and the peoples and
places it names, which a side's sentence may name in another form or contradict."""

from __future__ import annotations

import pytest

from app.answers.evidence import Evidence
from app.answers.properties import Holding, holding, property_of
from app.answers.question import read_question
from ingest.extraction import Named
from tests.app.answers.test_related import passages

BANDS = {
    "Dirty Pretty Things": "Dirty Pretty Things were an English rock band formed in London.",
    "Fireflight": "Fireflight is an American Christian rock band from Eustis, Florida.",
    "Tours": "Both bands toured England in 2006.",
}
LABELS = {
    "English": "LANGUAGE",
    "London": "GPE",
    "American": "NORP",
    "Eustis": "GPE",
    "Florida": "GPE",
    "England": "GPE",
}


def _bands() -> dict[str, Evidence]:
    """Each band's sentence, its names labelled as the entity model labels them ("English"
    before a noun is a LANGUAGE to it)."""
    pool = passages(BANDS)
    for evidence in pool:
        found = [(name, evidence.text.find(name)) for name in LABELS]
        named = [Named(n, LABELS[n], at, at + len(n)) for n, at in found if at >= 0]
        evidence.entities_read(named)
    return {evidence.source.hit.document.title: evidence for evidence in pool}


def test_a_people_holds_the_place_it_is_named_for_and_another_settles_it() -> None:
    question = read_question("Which band is from England, Fireflight or Dirty Pretty Things?")
    assert question.comparison is not None
    bands = _bands()
    wanted = property_of(question, question.comparison.sides, list(bands.values()))
    english = holding([bands["Dirty Pretty Things"]], wanted)
    american = holding([bands["Fireflight"]], wanted)
    assert english is not None and english.holds
    assert american is not None and american.settled and not american.holds


def test_a_place_no_sentence_names_is_held_by_its_people() -> None:
    """The passages say "English" and never "England": the place asked is still theirs."""
    question = read_question("Which band is from England, Fireflight or Dirty Pretty Things?")
    assert question.comparison is not None
    bands = _bands()
    pool = [bands["Dirty Pretty Things"], bands["Fireflight"]]
    wanted = property_of(question, question.comparison.sides, pool)
    assert wanted.origins == frozenset({"England"}) == wanted.exclusive
    english, american = holding(pool[:1], wanted), holding(pool[1:], wanted)
    assert english is not None and english.holds
    assert american is not None and american.settled


def test_a_people_that_names_a_thing_describes_nothing() -> None:
    """ "the band Soulfly" names a band; a sentence that calls Soulfly's singer Brazilian
    does not settle whether he played in it."""
    text = "Max Cavalera is a Brazilian singer who played in Soulfly."
    (sentence,) = passages({"Max Cavalera": text})
    start = text.index("Brazilian")
    sentence.entities_read([Named("Brazilian", "NORP", start, start + 9)])
    asked = read_question("Which musician played in the band Soulfly, Max Cavalera or Billy Idol?")
    assert asked.comparison is not None
    pool = [sentence, *passages({"Soulfly": "Soulfly is a band.", "Tour": "Soulfly toured."})]
    pool[1].entities_read([Named("Soulfly", "NORP", 0, 7)])  # as the model once read it
    pool[2].entities_read([Named("Soulfly", "GPE", 0, 7)])  # and once more
    wanted = property_of(asked, asked.comparison.sides, pool)
    found = holding([sentence], wanted)
    assert wanted.origins == frozenset() and found is not None and not found.settled


def test_a_people_does_not_settle_a_city() -> None:
    """No people is named for Istanbul: a Turkish bridge may well stand there."""
    pool = passages(
        {
            "Galata Bridge": "Galata Bridge is a Turkish bridge over the Golden Horn.",
            "Istanbul": "Istanbul is the largest city of the country.",
        }
    )
    bridge, city = pool
    bridge.entities_read([Named("Turkish", "NORP", 19, 26)])
    city.entities_read([Named("Istanbul", "GPE", 0, 8)])
    asked = read_question("Are Elm Mosque and Galata Bridge both located in Istanbul?")
    assert asked.comparison is not None
    wanted = property_of(asked, asked.comparison.sides, pool)
    found = holding([bridge], wanted)
    assert wanted.origins == frozenset({"Istanbul"}) and wanted.exclusive == frozenset()
    assert found is not None and not found.settled


def test_of_two_sides_whose_best_sentences_tie_the_one_whose_others_add_the_rest_has_it() -> None:
    """Both are American film directors; only Tom Hale's next sentence adds "advisor for
    Disney"."""
    asked = read_question(
        "Which American film director is an advisor for Disney, Ann Lee or Tom Hale?"
    )
    assert asked.comparison is not None
    ann = passages({"Ann Lee": "Ann Lee is an American film director. She was born in Ohio."})
    tom = passages(
        {"Tom Hale": "Tom Hale is an American film director. He is a creative advisor for Disney."}
    )
    wanted = property_of(asked, asked.comparison.sides, ann + tom)
    a, b = holding(ann, wanted), holding(tom, wanted)
    assert a is not None and b is not None
    assert a.share == b.share and b.strength > a.strength


def test_a_side_none_of_whose_sentences_holds_the_property_s_noun_has_none_of_it() -> None:
    """ "Both species of ferns?": a genus of flowering plants with "species" of its own is
    no fern, though it holds half the words; a genus whose next sentence names its
    plants is a flowering plant, though its best sentence names only a flower."""
    asked = read_question("Are Elmia and Oakia both species of ferns?")
    assert asked.comparison is not None
    elm = passages({"Elmia": "Elmia is a genus of ferns."})
    oak = passages({"Oakia": "There are species of Oakia that are no pests."})
    wanted = property_of(asked, asked.comparison.sides, elm + oak)
    a, b = holding(elm, wanted), holding(oak, wanted)
    assert a is not None and b is not None
    assert a.holds and b.share == 0.5 and not b.holds
    assert wanted.head == "fern"
    asked = read_question("Are Elmia and Oakia both flowering plants?")
    assert asked.comparison is not None
    oak = passages({"Oakia": "Its name means delicate flower. The plants have large bulbs."})
    found = holding(oak, property_of(asked, asked.comparison.sides, oak))
    assert found is not None and found.holds


def test_a_year_or_a_people_asked_is_no_noun_a_side_must_hold() -> None:
    for query in (
        "Were Elm Band and Oak Band both formed before 2010?",
        "Are Ann Lee and Tom Hale both of Armenian descent?",
    ):
        asked = read_question(query)
        assert asked.comparison is not None
        pool = passages({"Ann Lee": "Ann Lee is an Armenian-American singer."})
        pool[0].entities_read([Named("Armenian", "NORP", 15, 23)])
        assert property_of(asked, asked.comparison.sides, pool).head is None


def test_a_province_asked_is_held_by_that_province_not_by_its_country() -> None:
    """ "Based in Massachusetts?": a company in North Carolina, in the same country, is not."""
    asked = read_question("Are both Elm Energy and Oak Group based in Massachusetts?")
    assert asked.comparison is not None
    text = "Elm Energy is based in Charlotte, North Carolina, United States."
    (sentence,) = passages({"Elm Energy": text})
    places = ("Charlotte", "North Carolina", "United States")
    sentence.entities_read([Named(p, "GPE", text.index(p), text.index(p) + len(p)) for p in places])
    boston = "Oak Group is based in Boston, Massachusetts."
    (other,) = passages({"Oak Group": boston})
    at = boston.index("Massachusetts")
    other.entities_read([Named("Massachusetts", "GPE", at, at + 13)])
    wanted = property_of(asked, asked.comparison.sides, [sentence, other])
    assert wanted.origins == frozenset({"Massachusetts"})
    elm, oak = holding([sentence], wanted), holding([other], wanted)
    assert elm is not None and oak is not None and oak.holds and elm.share < oak.share


@pytest.mark.parametrize(
    ("query", "text", "places", "other", "origin"),
    [
        # "Located in China?": "a District of Qingdao, Shandong" names no country but is.
        (
            "Are Elm District and Oak City both located in China?",
            "Elm District is a District of Qingdao, Shandong.",
            ("Qingdao", "Shandong"),
            ("Oak City is a city in China.", Named("China", "GPE", 20, 25)),
            "China",
        ),
        # "Located in America?": "Pittsburgh, Pennsylvania" is, as English uses the name.
        (
            "Are both Elm District and Oak City located in America?",
            "Elm District is a private university in Pittsburgh, Pennsylvania.",
            ("Pittsburgh", "Pennsylvania"),
            ("Oak City is an American city.", Named("American", "NORP", 15, 23)),
            "America",
        ),
    ],
)
def test_a_country_asked_is_held_by_one_of_its_provinces(
    query: str, text: str, places: tuple[str, ...], other: tuple[str, Named], origin: str
) -> None:
    asked = read_question(query)
    assert asked.comparison is not None
    (sentence,) = passages({"Elm District": text})
    sentence.entities_read([Named(p, "GPE", text.index(p), text.index(p) + len(p)) for p in places])
    oak = passages({"Oak City": other[0]})
    oak[0].entities_read([other[1]])
    wanted = property_of(asked, asked.comparison.sides, [sentence, *oak])
    found = holding([sentence], wanted)
    assert wanted.origins == frozenset({origin}) and found is not None and found.holds


def test_an_actress_is_an_actor_and_also_asks_nothing() -> None:
    """ "Who was also an actor?" asks for one property, which "actress" holds."""
    ann, ivo = _ann_and_ivo(
        "Who was also an actor, Ann Lee or Ivo Marsh?",
        "Ann Lee is a South Korean singer, songwriter and actress.",
        "Ivo Marsh is an American musician. It was also released as a single.",
    )
    assert ann.holds and not ivo.holds
    asked = read_question("Who was also an actor, Ann Lee or Ivo Marsh?")
    assert property_of(asked, ("Ann Lee", "Ivo Marsh"), []).terms == frozenset({"actor"})


def _ann_and_ivo(asked: str, ann: str, ivo: str) -> tuple[Holding, Holding]:
    """How far each side's one-sentence passage holds the property the question asks."""
    question = read_question(asked)
    assert question.comparison is not None
    pool = passages({"Ann Lee": ann, "Ivo Marsh": ivo})
    wanted = property_of(question, question.comparison.sides, pool)
    found = holding(pool[:1], wanted), holding(pool[1:], wanted)
    assert found[0] is not None and found[1] is not None
    return found[0], found[1]


def test_what_the_question_says_the_last_side_is_is_no_property_of_both() -> None:
    question = read_question(
        "Which film was Oscar nominated, Elm Road or Oak Lane, the 1970 Rolling Stones documentary?"
    )
    assert question.comparison is not None
    wanted = property_of(question, question.comparison.sides, [])
    assert wanted.terms == frozenset({"film", "nomin", "oscar"})


def test_what_the_question_says_of_one_side_is_no_property_of_both() -> None:
    """Each side as passages name it ("Ivo Marsh", "Ada Lind"), and the words the question
    set about it: Italy and Mexican are each one side's; the words after the second side
    are asked of both."""
    question = read_question("Are Ivo Marsh from Italy, and Mexican Ada Lind, both film directors?")
    wanted = property_of(question, ("Ivo Marsh", "Ada Lind"), [])
    assert wanted.terms == frozenset({"film", "director"})
    assert wanted.origins == frozenset()
    both = read_question("Are both Ivo Marsh and Ada Lind American?")
    assert property_of(both, ("Ivo Marsh", "Ada Lind"), []).terms == frozenset({"american"})


def test_a_guitarist_is_a_musician_and_a_professor_a_teacher() -> None:
    """A passage names the narrow occupation; the question asks of the broad one."""
    ann, ivo = _ann_and_ivo(
        "Are Ann Lee and Ivo Marsh both musicians?",
        "Ann Lee is an American singer, songwriter and guitarist.",
        "Ivo Marsh is an American actor and painter.",
    )
    assert ann.holds and not ivo.holds
    ann, ivo = _ann_and_ivo(
        "Are Ann Lee and Ivo Marsh both teachers?",
        "Ann Lee is a professor of history at Leeds.",
        "Ivo Marsh is a novelist.",
    )
    assert ann.holds and not ivo.holds


def test_the_kind_a_question_picks_among_is_not_held_by_a_narrower_one() -> None:
    """ "Which filmmaker was known for animation?": both are directors, so a director is
    no filmmaker here; the one whose passage says "animation filmmaker" has it."""
    ann, ivo = _ann_and_ivo(
        "Which filmmaker was known for animation, Ann Lee or Ivo Marsh?",
        "Ann Lee is an American animation filmmaker.",
        "Ivo Marsh is an American film director known for drama.",
    )
    assert ann.strength > ivo.strength


@pytest.mark.parametrize(
    ("query", "text", "holds"),
    [
        (
            "Are Elm Times and Oak Weekly both sports magazines?",
            "a children's nature magazine",
            False,
        ),
        (
            "Are Elm Times and Oak Weekly both sports magazines?",
            "an American sports magazine",
            True,
        ),
        ("Are Elmia and Oakia both ice plants?", "a genus of flowering plants", False),
        ("Are Elm and Oak both women's magazines?", "a weekly magazine for young women", True),
        ("Are Elm and Oak both bestselling novels?", "one of twenty novels", True),
        (
            "Were Ann Lee and Bo Marsh both ESA astronauts?",
            "a physicist and former astronaut",
            False,
        ),
        (
            "Are both Ann Lee and Bo Marsh film directors?",
            "a screenwriter, director and producer",
            True,
        ),
    ],
)
def test_a_side_called_another_kind_of_the_noun_asked_lacks_the_property(
    query: str, text: str, holds: bool
) -> None:
    """The words set right before the noun name its kind: "a nature magazine" is no
    sports magazine, though it holds half the words; a list before the noun names none."""
    asked = read_question(query)
    assert asked.comparison is not None
    side = asked.comparison.sides[0]
    pool = passages({side: f"{side} is {text}."})
    found = holding(pool, property_of(asked, asked.comparison.sides, pool))
    assert found is not None and found.holds is holds
