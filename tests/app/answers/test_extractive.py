"""The extractive composer on passages written for the purpose, without the databases: how it
reads the sides of a comparison against what the passages name."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from uuid import uuid4

import pytest

from app.answers.composer import ComposeContext
from app.answers.extractive import ExtractiveComposer
from app.answers.question import read_question
from app.answers.results import Draft, Source
from app.models.embedders import Embedders
from app.models.minilm import MODEL_ID
from app.search.linking import EntityLinker
from app.search.results import HitDocument, SearchHit
from app.settings import Settings
from ingest.extraction import Extractor, Named

PAGES = {
    "Sir Tom Vale, 1st Baronet": "Sir Tom Vale, 1st Baronet (4 May 1701 – 2 June 1760) was an"
    " English landowner and politician.",
    "Ann Grey": "Ann Grey (12 March 1690 – 1 April 1781) was an English poet.",
    "Love, Honour and Rain": "Love, Honour and Rain is a 1952 comedy film directed by Ivo Marsh.",
    "Blue Lantern": "Blue Lantern is a 1961 drama film directed by Maren Olsvik.",
    "Aster Vale": "Aster Vale is a genus of about 50 species of flowering plants. It was"
    " first described in 1801.",
    "Brome Hill": "Brome Hill is a genus comprising three species of grasses, first described"
    " in 1950 from 120 plants.",
    "Battle of Orne Ford": "The Battle of Orne Ford was fought from 19 September to 16"
    " December 1944 between two armies. It was proposed in 1940 and recalled in 1990.",
    "Siege of Vell": "The Siege of Vell was a battle lasting from August 4 to September 18,"
    " 1950. The town was founded in 1100.",
    "Corn Mere": "Corn Mere alba is a tree of the beech family, and the only species in the"
    " genus Corn Mere. It was named in 1890.",
}


@pytest.fixture(scope="module")
def composer() -> ExtractiveComposer:
    settings = Settings.from_env({})
    return ExtractiveComposer(Embedders(settings.embeddings), EntityLinker(settings.spacy_model))


def short_answer(
    composer: ExtractiveComposer,
    query: str,
    pages: dict[str, str] = PAGES,
    stored: Callable[[str], list[Named]] | None = None,
) -> str | None:
    """The short answer; with `stored`, each passage's entities as ingest would have kept
    them (a function of the passage's text)."""
    return drafted(composer, query, pages, stored).short_answer


def drafted(
    composer: ExtractiveComposer,
    query: str,
    pages: dict[str, str] = PAGES,
    stored: Callable[[str], list[Named]] | None = None,
) -> Draft:
    sources = [
        Source(f"SRC:{i + 1:04d}", _hit(t, text)) for i, (t, text) in enumerate(pages.items())
    ]
    named = {s.hit.chunk_id: stored(s.hit.text) for s in sources} if stored else {}
    context = ComposeContext(read_question(query), sources, "en", MODEL_ID, named=named)
    return asyncio.run(composer.draft(context))


def _hit(title: str, text: str) -> SearchHit:
    document = HitDocument(uuid4(), uuid4(), title, title, "text/plain", {}, "")
    return SearchHit(uuid4(), 1.0, [], document, None, [], text, text, [], None)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Who was born first, Sir Tom Vale, 1st Baronet or Ann Grey?", "Ann Grey"),
        ("Who was born later, Sir Tom Vale, 1st Baronet or Ann Grey?", "Sir Tom Vale, 1st Baronet"),
        (
            "Which film came out first, Love, Honour and Rain or Blue Lantern?",
            "Love, Honour and Rain",
        ),
        (
            "Which film came out first, Blue Lantern or Love, Honour and Rain?",
            "Love, Honour and Rain",
        ),
    ],
)
def test_a_side_is_widened_over_a_comma_when_a_passage_names_the_wider_name(
    composer: ExtractiveComposer, query: str, expected: str
) -> None:
    """The question's parse ends a side at a comma ("1st Baronet", "Love"); a passage names
    the wider form, so the name holds the comma."""
    assert short_answer(composer, query) == expected


def test_sides_joined_by_and_split_where_the_passages_name_each(
    composer: ExtractiveComposer,
) -> None:
    """ "The Owls and I and Seas" parses as "The Owls" and "I and Seas"; the passages name
    "The Owls and I" and "Seas"."""
    pages = {
        "The Owls and I": "The Owls and I is an American drama film released on July 31,"
        " 1974, by Buena Vista Distribution.",
        "Seas (film)": "Seas is a French documentary film released in 2009 by Pathé.",
    }
    query = (
        "In between The Owls and I and Seas which was released on July 31, 1974, by Buena"
        " Vista Distribution?"
    )
    assert short_answer(composer, query, pages) == "The Owls and I"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Which genus has more species, Aster Vale or Brome Hill?", "Aster Vale"),
        ("Which genus has fewer species, Aster Vale or Brome Hill?", "Brome Hill"),
    ],
)
def test_a_comparison_of_counts_compares_the_numbers_of_the_thing_it_names(
    composer: ExtractiveComposer, query: str, expected: str
) -> None:
    """Each side's number is the one that counts species ("three species" as a word), not
    a year or another count in the same passage."""
    assert short_answer(composer, query) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Which genus has more species, Corn Mere or Brome Hill?", "Brome Hill"),
        ("Which genus has fewer species, Corn Mere or Brome Hill?", "Corn Mere"),
    ],
)
def test_the_only_one_of_its_kind_counts_one(
    composer: ExtractiveComposer, query: str, expected: str
) -> None:
    """ "the only species in the genus" is a count of one species."""
    assert short_answer(composer, query) == expected


def test_a_side_written_with_its_maker_is_the_work_its_page_names(
    composer: ExtractiveComposer,
) -> None:
    """ "Manon by Massenet" is the opera "Manon": no passage names the side as written."""
    operas = {
        "Parsifal": "Parsifal is an opera in three acts by Richard Wagner.",
        "Manon": "Manon is an opera in five acts by Jules Massenet.",
    }
    asked = "Which opera has more acts, Parsifal or Manon by Massenet?"
    assert short_answer(composer, asked, operas) == "Manon by Massenet"
    asked = "Which opera has fewer acts, Parsifal or Manon by Massenet?"
    assert short_answer(composer, asked, operas) == "Parsifal"


def test_a_document_s_subject_answers_by_the_name_of_its_title(
    composer: ExtractiveComposer,
) -> None:
    """The opening gives the full name; the collection titles the person by the common
    one."""
    pages = {
        "Jon Waters": "Jon Samuel Waters Jr. (born 22 April 1946) is an American film director."
    }
    query = "Which American film director was born on 22 April 1946?"
    assert short_answer(composer, query, pages) == "Jon Waters"


def test_a_longer_title_names_something_else_than_its_opening_subject(
    composer: ExtractiveComposer,
) -> None:
    pages = {"Assassination of James Hale": "James Hale was an American senator, shot in May 1881."}
    assert (
        short_answer(composer, "Which American senator was shot in May 1881?", pages)
        == "James Hale"
    )


QUERIES = [
    "Who was born first, Sir Tom Vale, 1st Baronet or Ann Grey?",
    "Which film came out first, Blue Lantern or Love, Honour and Rain?",
    "Which genus has fewer species, Corn Mere or Brome Hill?",
    "Who directed Blue Lantern?",
]


@pytest.mark.parametrize("query", QUERIES)
def test_entities_ingest_kept_answer_as_the_model_run_on_each_sentence_does(
    composer: ExtractiveComposer, query: str
) -> None:
    """The composer reads the entities ingest found in each whole passage instead of running
    the model on its sentences again; the answers are the same."""
    extractor = Extractor(Settings.from_env({}).spacy_model)

    def kept(text: str) -> list[Named]:
        named = extractor.extract([(0, text)])[0].named
        assert named is not None
        return named

    assert short_answer(composer, query, stored=kept) == short_answer(composer, query)


def test_a_passage_ingest_found_no_entity_in_is_not_read_again(
    composer: ExtractiveComposer,
) -> None:
    """Stored entities are what the composer reads: with none kept for the passage, no
    person is found in it, though the model would find the director."""
    query = "Who directed Blue Lantern?"
    assert short_answer(composer, query) == "Maren Olsvik"
    assert short_answer(composer, query, stored=lambda _: []) != "Maren Olsvik"


def test_a_hop_back_to_a_thing_the_question_names_is_not_taken(
    composer: ExtractiveComposer,
) -> None:
    """A ceremony's page names the prize as "Nobel", and the prize leads to Ada Lind's own
    page, whose subject the question names: the prize in her sentence is the answer, not
    her fuller name."""
    pages = {
        "Ada Lind": "Ada Marie Lind (16 November 1922 – 18 June 2010) was a Norwegian writer and"
        " recipient of the 1998 Nobel Prize in Literature.",
        "Festival March": "The march was played at the presentation ceremony for the Nobel"
        " Prize in Literature.",
        "Ivo Brandt": "Ivo Brandt was a Bosnian novelist.",
    }
    labels = {
        "Ada Marie Lind": "PERSON",
        "Nobel Prize in Literature": "WORK_OF_ART",
        "Nobel": "ORG",
        "Ivo Brandt": "PERSON",
    }

    def kept(text: str) -> list[Named]:
        opening = text.startswith("The march")
        found = [(n, text.find(n)) for n in labels if (n == "Nobel") == opening]
        return [Named(n, labels[n], at, at + len(n)) for n, at in found if at >= 0]

    query = "Ada Lind and Ivo Brandt were recipients of what award in Literature?"
    assert short_answer(composer, query, pages, stored=kept) == "Nobel Prize in Literature"


DIRECTED = {
    "Blue Lantern": "Blue Lantern is a 1961 drama film directed by Maren Olsvik.",
    "Maren Olsvik": "Maren Olsvik (1920 – 1990) was a Norwegian film director.",
    "Harbour Nights": "Harbour Nights is a 1958 comedy film directed by Ivo Marsh.",
    "Ivo Marsh": "Ivo Marsh (1915 – 1980) was a Norwegian film director.",
}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "Do both films: Blue Lantern and Harbour Nights have the directors from the same"
            " country?",
            "yes",
        ),
        (
            "Which film came out first, English film Blue Lantern or Harbour Nights?",
            "Harbour Nights",
        ),
    ],
)
def test_a_side_with_words_before_its_name_is_the_name_its_passages_hold(
    composer: ExtractiveComposer, query: str, expected: str
) -> None:
    """ "films: Blue Lantern", "English film Blue Lantern": no passage names the side as the
    question's parse gave it, and its last words are the name."""
    assert short_answer(composer, query, DIRECTED) == expected


def test_of_a_sentence_s_names_the_one_whose_page_calls_it_the_kind_asked_answers(
    composer: ExtractiveComposer,
) -> None:
    """Two names in the sentence, the quoted one first by its quotes; only the carrier's own
    page says it is a carrier."""
    pages = {
        "VMA-517": 'With its assignment to the HMS Caldera (R-12) and "Air Wing Seven", VMA-517'
        " was one of the first two squadrons to join carrier aircraft groups during the Korean"
        " War.",
        "HMS Caldera (R-12)": "HMS Caldera (R-12) was an aircraft carrier and the lead ship of"
        " the Caldera class built for the Royal Navy.",
        "Air Wing Seven": "Air Wing Seven is a naval aviation unit formed in 1942.",
    }
    query = "To which aircraft carrier was the VMA-517 squadron assigned during the Korean War?"
    assert short_answer(composer, query, pages) == "the HMS Caldera"


def test_a_movie_asked_for_is_what_its_page_calls_a_film(composer: ExtractiveComposer) -> None:
    pages = {
        "Night Lantern (film)": "Night Lantern is a 2004 American action film loosely based on"
        " the Orion Comics character of the same name directed by Ivo Marsh.",
        "Night Lantern (video game)": "Night Lantern is a 2004 action-adventure video game"
        " based on the film of the same name.",
    }
    query = "What movie did Ivo Marsh direct which had a tie-in video game in 2004?"
    assert short_answer(composer, query, pages) == "Night Lantern"


def test_a_page_about_an_actor_is_no_film_over_the_film_its_sentence_names(
    composer: ExtractiveComposer,
) -> None:
    """The hop into the actor's page found the film; that the page's opening calls him a
    "stage and film actor" does not make him the film asked for."""
    pages = {
        "Harbour Nights Live!": "The special starred Elin Sokol in the title role and Tomas"
        " Brenner as the Harbour King.",
        "Tomas Brenner": "Tomas Brenner (born 3 March 1943) is an American stage and film actor"
        " who has appeared in more than 100 films. Brenner won the Academy Award for Best"
        ' Supporting Actor for his role in "The Salt Road".',
    }
    query = (
        "The actor playing the Harbour King in Harbour Nights Live! won an Academy Award for"
        " which film?"
    )
    assert short_answer(composer, query, pages) == "The Salt Road"


def test_a_place_found_is_not_left_for_the_places_its_own_page_names(
    composer: ExtractiveComposer,
) -> None:
    """The best sentence names the town the question asks for; a hop from the town into its
    own page would only find what the town is in, which no head noun asks for."""
    pages = {
        "Gum Wall": "Similar to Blue Alley in Ashford Falls, Oregon, the Market Gum Wall is a"
        " local landmark.",
        "Ashford Falls": "Ashford Falls is a city in the U.S. state of Oregon, located midway"
        " between Salem and Eugene.",
    }
    places = ("Ashford Falls", "Oregon", "U.S.", "Salem", "Eugene")

    def kept(text: str) -> list[Named]:
        found = [(p, text.find(p)) for p in places]
        return [Named(p, "GPE", at, at + len(p)) for p, at in found if at >= 0]

    query = "Where is the Blue Alley, that is similar to Gum Wall, located in Oregon?"
    assert short_answer(composer, query, pages, stored=kept) == "Ashford Falls, Oregon"


def test_a_class_one_side_s_later_sentence_gives_is_shared_in_the_other_s_words(
    composer: ExtractiveComposer,
) -> None:
    pages = {
        "Ann Lee": "Ann Lee (1941 – 2002) was an American paleontologist and historian of"
        " science. She was also one of the most widely read writers of popular science.",
        "Bo Marsh": "Bo Marsh (born 1947) is an American novelist and short story writer.",
    }
    query = "What profession does Ann Lee and Bo Marsh have in common?"
    assert short_answer(composer, query, pages) == "writer"


@pytest.mark.parametrize(
    ("years", "expected"),
    [(("2010", "1974"), "French Open"), (("2010", "2010"), "2010 French Open")],
)
def test_two_editions_of_one_event_share_the_event_without_their_years(
    composer: ExtractiveComposer, years: tuple[str, str], expected: str
) -> None:
    """Finalists of the 2010 and of the 1974 French Open were finalists of one tournament."""
    pages = {
        "Ann Lee": f"Ann Lee (born 1980) is an Italian tennis player. She won the {years[0]}"
        " French Open singles title.",
        "Bo Marsh": "Bo Marsh (born 1949) is a retired tennis player. She was the runner up"
        f" in singles at the {years[1]} French Open.",
    }
    query = "Which Grand Slam singles tournament have Ann Lee and Bo Marsh both been finalists in?"

    def events(text: str) -> list[Named]:
        return [
            Named(m[0], "EVENT", m.start(), m.end())
            for m in re.finditer(r"\d{4} French Open", text)
        ]

    assert short_answer(composer, query, pages, events) == expected


def test_a_country_two_sides_share_is_named_by_their_people(
    composer: ExtractiveComposer,
) -> None:
    """Asked the country of their ancestry, both passages give it only as a people."""
    pages = {
        "Ann Lee": "Ann Lee (born 1925) is an Armenian-American radio host.",
        "Bo Marsh": "Bo Marsh (born 1978) is an Armenian-American photographer.",
    }
    query = "What is the shared country of ancestry between Ann Lee and Bo Marsh?"

    def peoples(text: str) -> list[Named]:
        return [Named(m[0], "NORP", m.start(), m.end()) for m in re.finditer("Armenian", text)]

    assert short_answer(composer, query, pages, peoples) == "Armenian"


def test_the_one_page_that_opens_as_the_kind_asked_answers_over_a_value_of_no_kind(
    composer: ExtractiveComposer,
) -> None:
    """ "New Zealand" is no technique; the one page that opens as one is the answer."""
    pages = {
        "D1NZ": "D1NZ is a production car drifting series in New Zealand.",
        "Drifting (motorsport)": "Drifting is a driving technique where the driver"
        " intentionally oversteers, with loss of traction.",
        "Mazda RX-7": "The Mazda RX-7 is a sports car produced by Mazda from 1978 to 2002.",
    }
    query = "D1NZ is a series based on what oversteering technique?"
    assert short_answer(composer, query, pages) == "Drifting"


def test_with_no_value_the_page_of_the_kind_holding_most_of_the_question_answers(
    composer: ExtractiveComposer,
) -> None:
    pages = {
        "Ann Vale": "Ann Vale is an English actress. She is the youngest daughter of Lady Mary"
        " Lee and the painter Tom Vale.",
        "Blue Sky (film)": "Blue Sky is a 2015 British comedy film.",
        "The Dark Room": "The Dark Room is a 2017 American horror film directed by Tim Roe,"
        " starring Doug Smith, Luc Lav and Ann Vale.",
    }
    query = "The youngest daughter of Lady Mary Lee stars with Doug Smith and Luc Lav in what film?"
    assert short_answer(composer, query, pages) == "The Dark Room"


def test_of_several_pages_of_the_kind_none_outranking_the_value_the_value_stands(
    composer: ExtractiveComposer,
) -> None:
    pages = {
        "Fire of Zamani": "Fire of Zamani is a 2013 hip hop album. It features guest"
        " appearances from Wale and Morell.",
        "Ice Prince": "Ice Prince is a Nigerian artist and rapper.",
        "Meek Mill": "Meek Mill is an American artist and rapper.",
    }
    query = "Which artist was featured as a guest in Fire of Zamani?"

    def people(text: str) -> list[Named]:
        found = re.finditer("(Wale|Morell|Ice Prince|Meek Mill)|Nigerian|American", text)
        return [Named(m[0], "PERSON" if m[1] else "NORP", m.start(), m.end()) for m in found]

    assert short_answer(composer, query, pages, people) == "Wale"


def test_a_side_s_own_page_says_what_it_is_over_another_page_that_names_it(
    composer: ExtractiveComposer,
) -> None:
    """Another page's sentence that names a side may say the property of something else it
    names: "Star Road" is a show Tom Reed produced, not a writer."""
    pages = {
        "Ivo Marsh": "Ivo Marsh is an American film and television writer and director.",
        "Tom Reed": "Tom Reed (born 1963) is an American film director and producer.",
        "Star Road": "Star Road is an American television drama, produced by Tom Reed and"
        " written by Lena Fox.",
    }
    query = "Are Ivo Marsh and Tom Reed both television writers?"
    assert short_answer(composer, query, pages) == "no"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "Which battle lasted longer, Siege of Vell or Battle of Orne Ford?",
            "Battle of Orne Ford",
        ),
        (
            "Which battle lasted a shorter time, Battle of Orne Ford or Siege of Vell?",
            "Siege of Vell",
        ),
    ],
)
def test_which_lasted_longer_compares_the_spans_each_side_lasted(
    composer: ExtractiveComposer, query: str, expected: str
) -> None:
    """Each side's span of dates, though the later year of another sentence ("founded in
    1100", "recalled in 1990") would make the other side the earlier or the longer."""
    assert short_answer(composer, query) == expected


_CHAINS = {
    "Pine Pizza": "Pine Pizza is a pizza chain based in Dayton, Ohio, with about 14 locations"
    " in Ohio and Indiana.",
    "Oak Pizza": "Oak Pizza is a pizza restaurant in Akron, Ohio, opened in 1990 by two brothers.",
}


def test_a_side_whose_own_passage_counts_nothing_has_fewer_unsettled(
    composer: ExtractiveComposer,
) -> None:
    """Asked which has more, the side whose passage counts 14 locations wins over one whose
    own passage names none; the passages do not settle it, and the gap says so."""
    draft = drafted(composer, "Which chain has more locations, Oak Pizza or Pine Pizza?", _CHAINS)
    assert draft.short_answer == "Pine Pizza"
    assert not draft.settled and any("Oak Pizza" in gap for gap in draft.gaps)


@pytest.mark.parametrize(
    ("query", "pages"),
    [
        ("Which chain has fewer locations, Oak Pizza or Pine Pizza?", _CHAINS),
        (
            "Which chain has more locations, Fir Pizza or Pine Pizza?",
            {"Pine Pizza": _CHAINS["Pine Pizza"]},
        ),
    ],
)
def test_a_count_no_passage_gives_is_no_fewer_when_fewer_is_asked_or_no_passage_is_its_own(
    composer: ExtractiveComposer, query: str, pages: dict[str, str]
) -> None:
    """Fewer than none is nothing to read, and a side no passage is about may have any
    number."""
    assert short_answer(composer, query, pages) is None


def test_below_the_floor_a_film_the_question_describes_answers_unsettled(
    composer: ExtractiveComposer,
) -> None:
    """A long question holds more words than any passage: the quality floor fails, but the
    page of the best sentence opens by calling its subject the kind asked, so the question
    described that film. Nothing else is answered below the floor."""
    pages = {
        "The Grey Door": "The Grey Door is a 1999 mystery thriller film directed by Ivo"
        " Marsh. Though critically unsuccessful in Norway, it earned more abroad.",
    }
    query = (
        "What is the name of the 1999 film directed by Ivo Marsh and starring his wife Ann"
        " Lee that was a worldwide hit but critically unsuccessful in Norway?"
    )
    found = drafted(composer, query, pages)
    assert found.short_answer == "The Grey Door" and not found.settled
    unasked = drafted(composer, "Who scored in the cup final of 1931 for Vell?", pages)
    assert unasked.abstain_reason == "NO_CONTEXT"


def test_a_page_of_the_kind_without_the_year_asked_is_no_answer(
    composer: ExtractiveComposer,
) -> None:
    pages = {
        "Ann Vale": "Ann Vale is an English actress. She is the youngest daughter of Lady Mary"
        " Lee and the painter Tom Vale.",
        "Blue Sky (film)": "Blue Sky is a 2015 British comedy film starring Doug Smith and Luc"
        " Lav.",
        "The Dark Room": "The Dark Room is a 2017 American horror film starring Ann Vale.",
    }
    query = (
        "The youngest daughter of Lady Mary Lee stars with Doug Smith and Luc Lav in what 2017"
        " film?"
    )
    assert short_answer(composer, query, pages) == "The Dark Room"
